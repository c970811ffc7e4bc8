/** Text colours of an NPS level dark enough on white (WCAG AA): low red, medium amber, high green (spec §9); the statistics pages and the course report show them alike. */
export const NPS_LEVEL_COLORS = { none: '#495057', low: '#b42318', medium: '#8a5a00', high: '#1b6e2f' } as const;

export type NpsLevel = keyof typeof NPS_LEVEL_COLORS;
