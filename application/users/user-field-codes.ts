/**
 * spec §8 error codes for invalid user fields, the same on every form that has the field
 * (registration, profile, password change and reset, e-mail change, the admin's user form):
 * e-mail 422004 (422005 when taken, raised where the claim fails), username 422014 (422013 taken),
 * second e-mail 422016, password 422007.
 */
export const USER_FIELD_CODES = {
  email: '422004',
  username: '422014',
  secondaryEmail: '422016',
  password: '422007',
  passwordConfirmation: '422007',
} as const;
