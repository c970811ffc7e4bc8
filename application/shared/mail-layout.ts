/**
 * One look for every mail the platform sends: a heading, paragraphs, an optional button with its
 * link also written out (some clients do not show buttons), and a closing line; the same words as
 * plain text. Simple markup with inline styles and a table for the button: what common clients
 * (Outlook, Gmail, Apple Mail) render alike.
 */
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export type MailContent = { readonly subject: string; readonly text: string; readonly html: string };

export const mailLayout = (content: {
  subject: string;
  heading: string;
  paragraphs: readonly string[];
  action?: { label: string; url: string };
  closing?: readonly string[];
}): MailContent => {
  const closing = content.closing ?? ['Lep pozdrav,', 'ekipa Medilearn'];
  const text = [
    content.heading,
    '',
    ...content.paragraphs.flatMap((p) => [p, '']),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ''] : []),
    ...closing,
  ].join('\n');
  const paragraph = (p: string) => `<p style="margin:0 0 16px;font-size:16px;line-height:24px;color:#1f2933">${escapeHtml(p)}</p>`;
  const button = content.action
    ? `<table role="presentation" cellspacing="0" cellpadding="0" style="margin:8px 0 24px"><tr><td style="border-radius:6px;background:#0b6e69">
         <a href="${escapeHtml(content.action.url)}" style="display:inline-block;padding:12px 24px;font-size:16px;color:#ffffff;text-decoration:none;font-weight:bold">${escapeHtml(content.action.label)}</a>
       </td></tr></table>
       <p style="margin:0 0 16px;font-size:13px;line-height:20px;color:#52606d">Če gumb ne deluje, odprite to povezavo:<br><a href="${escapeHtml(content.action.url)}" style="color:#0b6e69;word-break:break-all">${escapeHtml(content.action.url)}</a></p>`
    : '';
  const html = `<!doctype html><html lang="sl"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;padding:0;background:#f4f6f8;font-family:Arial,Helvetica,sans-serif">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="background:#f4f6f8"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="560" cellspacing="0" cellpadding="0" style="max-width:560px;width:100%;background:#ffffff;border-radius:8px"><tr><td style="padding:32px">
<h1 style="margin:0 0 24px;font-size:22px;line-height:28px;color:#0b3d3a">${escapeHtml(content.heading)}</h1>
${content.paragraphs.map(paragraph).join('\n')}
${button}
${closing.map(paragraph).join('\n')}
</td></tr></table></td></tr></table></body></html>`;
  return { subject: content.subject, text, html };
};
