import { session } from './session.ts';

/** Downloads a file the API serves only with the JWT header (certificates, exports): fetch, then save as `filename`. */
export const downloadFile = async (url: string, filename: string, post?: { body: unknown }) => {
  const headers: Record<string, string> = { Authorization: `JWT ${session.token() ?? ''}` };
  // An export that issues something (login links) is a POST with a JSON body.
  if (post) headers['Content-Type'] = 'application/json';
  const response = await fetch(url, post ? { method: 'POST', headers, body: JSON.stringify(post.body) } : { headers });
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
