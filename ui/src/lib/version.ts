declare const __APP_VERSION__: string;

/** The app version of spec §1 (3.5.3), from package.json at build time. */
export const APP_VERSION: string = __APP_VERSION__;
