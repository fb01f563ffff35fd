// Where WebContainer should not boot unasked. StackBlitz's TutorialKit holds the boot back on iPhone and iPad (an
// iPad in desktop mode reports itself as a Mac with a touch screen), because booting there risks crashing the
// browser; Conch follows it and starts the embedded runtime instead, with WebContainer one click away.

/** What the browser says about the device (navigator has these fields). */
export type DeviceHints = { userAgent: string; platform?: string; maxTouchPoints?: number };

/** True on iPhone, iPod and iPad (iPadOS included). */
export function isIPhoneOrIPad(device: DeviceHints): boolean {
  const platform = device.platform ?? '';
  if (/iPhone|iPod|iPad/.test(device.userAgent) || /^(iPhone|iPod|iPad)/.test(platform)) return true;
  return platform === 'MacIntel' && (device.maxTouchPoints ?? 0) > 1;
}

/** Whether 'auto' may boot WebContainer by itself on this device (no device info: yes). */
export function mayAutoBootWebContainer(device: DeviceHints | undefined): boolean {
  return device === undefined || !isIPhoneOrIPad(device);
}
