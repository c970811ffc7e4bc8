import { session } from './session.ts';

/** Downloads a file the API serves only with the JWT header (certificates, exports): fetch, then save as `filename`. */
export const downloadFile = async (url: string, filename: string) => {
  const response = await fetch(url, { headers: { Authorization: `JWT ${session.token() ?? ''}` } });
  if (!response.ok) throw new Error(String(response.status));
  const objectUrl = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = objectUrl;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
};
