/**
 * The ILIKE pattern of what a person typed into a search box: anywhere in the text, surrounding
 * spaces dropped, and `%`, `_` and `\` taken literally (PostgreSQL's default LIKE escape is `\`),
 * so a search for "50%" finds "50%" and not everything that starts with 50.
 */
export const likePattern = (search: string) => `%${search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
