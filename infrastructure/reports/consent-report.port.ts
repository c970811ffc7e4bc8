/** What an auditor exports for one user: where their consents stood, the full history, and the chain check. */
export type ConsentReport = {
  readonly user: { readonly id: number; readonly fullName: string; readonly username: string; readonly email: string };
  readonly generatedAt: Date;
  /** The instant the standing is shown for; null means "now". */
  readonly asOf: Date | null;
  readonly standing: readonly {
    readonly type: number;
    readonly title: string;
    readonly given: boolean;
    readonly textVersion: string | null;
    readonly at: string | null;
  }[];
  readonly timeline: readonly {
    readonly sequence: number;
    readonly at: string;
    readonly action: 'given' | 'withdrawn';
    readonly type: number;
    readonly title: string;
    readonly textVersion: string;
    readonly channel: string;
    readonly ip: string | null;
    readonly userAgent: string | null;
    readonly recordedBy: { readonly id: number; readonly name: string } | null;
    readonly note: string | null;
    readonly hash: string;
  }[];
  readonly verification: {
    readonly valid: boolean;
    readonly checked: number;
    readonly broken: { readonly message: string } | null;
    /** The stream against the latest signed checkpoint (decision 0052); null before the first. */
    readonly checkpoint: { readonly sequence: number; readonly at: string; readonly valid: boolean; readonly message: string | null } | null;
  };
  /** The receipt: the signed checkpoint (root, signature, public key) and the stream's inclusion path (decision 0052). */
  readonly receipt: { readonly root: string; readonly signature: string; readonly publicKey: string; readonly path: readonly string[] } | null;
};

export type ConsentReportRenderer = {
  xlsx(report: ConsentReport, owner?: string): Promise<Buffer>;
  pdf(report: ConsentReport, owner?: string): Promise<Buffer>;
};
