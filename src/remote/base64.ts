// Bytes as base64, for APIs that take binary files in JSON (GitHub's blobs, GitLab's commit actions).

/** `data` as standard base64, built in chunks so a large file does not overflow the call stack. */
export function base64Of(data: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
  return btoa(binary);
}
