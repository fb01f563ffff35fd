// Saves bytes as a file download (an object URL on a temporary link, revoked once the browser has it).

/** Starts a download of `data` named `fileName`. */
export function downloadBytes(fileName: string, data: Uint8Array | string, mimeType: string): void {
  const blob = new Blob([typeof data === 'string' ? data : data.slice().buffer], { type: mimeType });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
