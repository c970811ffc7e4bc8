import { type MailContent, mailLayout } from '../shared/mail-layout.ts';

/** The identity flows' mail (issue 13), in Slovenian. `link` is where the button leads; `code` a second-factor code. */
export type IdentityMailKind =
  | 'email-confirmation'
  | 'password-reset'
  | 'password-setup'
  | 'email-change-confirm'
  | 'email-change-notice'
  | 'second-factor-code';

export const identityMail = (
  kind: IdentityMailKind,
  params: { name: string; link?: string; code?: string; newEmail?: string; signature?: boolean },
): MailContent => {
  const hello = `Pozdravljeni, ${params.name}!`;
  switch (kind) {
    case 'email-confirmation':
      return mailLayout({
        subject: 'Potrdite svoj e-naslov',
        heading: hello,
        paragraphs: ['Hvala za registracijo na platformi Medilearn. Za dokončanje registracije potrdite svoj e-naslov.', 'Povezava velja 7 dni.'],
        action: { label: 'Potrdi e-naslov', url: params.link as string },
      });
    case 'password-reset':
      return mailLayout({
        subject: 'Ponastavitev gesla',
        heading: hello,
        paragraphs: [
          'Prejeli smo zahtevo za ponastavitev gesla za vaš račun. Novo geslo nastavite s spodnjo povezavo, ki velja eno uro in jo lahko uporabite enkrat.',
          'Če ponastavitve niste zahtevali, sporočilo prezrite: vaše geslo ostane nespremenjeno.',
        ],
        action: { label: 'Nastavi novo geslo', url: params.link as string },
      });
    case 'password-setup':
      return mailLayout({
        subject: 'Dobrodošli na platformi Medilearn',
        heading: hello,
        paragraphs: ['Za vas smo odprli račun na platformi Medilearn. Za prvo prijavo si nastavite geslo.', 'Povezava velja 14 dni.'],
        action: { label: 'Nastavi geslo', url: params.link as string },
      });
    case 'email-change-confirm':
      return mailLayout({
        subject: 'Potrdite nov e-naslov',
        heading: hello,
        paragraphs: ['Zahtevali ste spremembo e-naslova za svoj račun na platformi Medilearn. Novi e-naslov potrdite s spodnjo povezavo, ki velja 24 ur.'],
        action: { label: 'Potrdi nov e-naslov', url: params.link as string },
      });
    case 'email-change-notice':
      return mailLayout({
        subject: 'Zahteva za spremembo e-naslova',
        heading: hello,
        paragraphs: [
          `Za vaš račun je bila zahtevana sprememba e-naslova v ${params.newEmail}. Sprememba začne veljati, ko jo potrdite na novem naslovu.`,
          'Če spremembe niste zahtevali vi, takoj spremenite geslo in nam pišite.',
        ],
      });
    case 'second-factor-code':
      // Issue 36 (decision 0063): the code an approver's electronic signature needs, not a login's.
      if (params.signature)
        return mailLayout({
          subject: `Koda za elektronski podpis: ${params.code}`,
          heading: hello,
          paragraphs: [
            `Vaša koda za elektronski podpis odobritve izobraževanja je ${params.code}. Velja 10 minut.`,
            'Če ne podpisujete vi, kode ne posredujte nikomur in spremenite geslo.',
          ],
        });
      return mailLayout({
        subject: `Koda za prijavo: ${params.code}`,
        heading: hello,
        paragraphs: [`Vaša koda za prijavo je ${params.code}. Velja 10 minut.`, 'Če se niste prijavljali vi, kode ne posredujte nikomur in spremenite geslo.'],
      });
    default: {
      const unreachable: never = kind;
      return unreachable;
    }
  }
};
