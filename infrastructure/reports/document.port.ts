/** A readable document (a person's data export): a title, a few lines under it, then sections of lines. */
export type TextDocument = {
  readonly title: string;
  readonly intro: readonly string[];
  readonly sections: readonly { readonly heading: string; readonly lines: readonly string[] }[];
};

/** `owner`: whose request it is (an account, an address): each person's share of the drawing is bounded (render-pool.ts). */
export type DocumentRenderer = { readonly pdf: (document: TextDocument, owner?: string) => Promise<Buffer> };
