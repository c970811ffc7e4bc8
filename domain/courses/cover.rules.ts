import type { z } from 'zod';

export const COVER_ADDRESS_MESSAGE = 'Naslovna slika mora biti naložena slika, pot na tem strežniku ali naslov https://.';

/**
 * Where a cover (spec §5: jpg or png) may come from: an uploaded file (`/api/files/<id>`, its type
 * checked by the API), a path on this server, an https address, or an inline image. Anything else
 * (`javascript:`, `http:` on an https page, other schemes, `//host` shorthand) is refused.
 */
const COVER_ADDRESS = /^(\/(?![/\\])|https:\/\/[^\s/]|data:image\/(png|jpeg|svg\+xml)[;,])/i;

export const isCoverAddress = (value: string): boolean => COVER_ADDRESS.test(value);

/** A cover field: the given text rule, then the address check (an empty value keeps its "required" message). */
export const coverRule = <T extends z.ZodType<string>>(schema: T) => schema.refine((v) => v === '' || isCoverAddress(v), { error: COVER_ADDRESS_MESSAGE });
