/** A readable document (a person's data export): a title, a few lines under it, then sections of lines. */
export type TextDocument = {
  readonly title: string;
  readonly intro: readonly string[];
  readonly sections: readonly { readonly heading: string; readonly lines: readonly string[] }[];
};

export type DocumentRenderer = { readonly pdf: (document: TextDocument) => Promise<Buffer> };
