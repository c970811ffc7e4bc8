/** The app version of spec §1, shown in the mobile menu and on /version. */
export const APP_VERSION = '3.5.3';
