import { type MailContent, mailLayout } from '../shared/mail-layout.ts';

/**
 * A course notification in Slovenian (issue 16): the author's subject and message, a button to the
 * course, and how to stop such mail (every mail carries the way out: withdrawing the communications
 * consent on the profile, which every later send checks).
 */
export const courseNotificationMail = (input: {
  name: string;
  subject: string;
  message: string;
  courseTitle: string;
  courseUrl: string;
  unsubscribeUrl: string;
}): MailContent =>
  mailLayout({
    subject: input.subject,
    heading: input.courseTitle,
    paragraphs: [
      `Pozdravljeni, ${input.name}!`,
      ...input.message
        .split(/\n{2,}/)
        .map((p) => p.trim())
        .filter((p) => p !== ''),
    ],
    action: { label: 'Odpri izobraževanje', url: input.courseUrl },
    closing: [
      'Lep pozdrav,',
      'ekipa Medilearn',
      `Tega obvestila ne želite več prejemati? Privolitev za obveščanje lahko umaknete tukaj: ${input.unsubscribeUrl}`,
    ],
  });
