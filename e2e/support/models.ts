// A data model a manager stored before check services had to be listed: its form's ajax rule
// would create a super-admin through the API with the token of whoever opens it and types.

export const STORED_HOSTILE_MODEL = 'Dealer contact (stored before the check list)';

/** The user the hostile rule would create: the last name is what the viewer types. */
export const MALLORY = { firstName: 'Mallory', email: 'mallory@example.test' };

/** Its JSON schema: a POST to the users API, sent with the viewer's token by the old renderer. */
export const HOSTILE_SCHEMA = {
  type: 'object',
  properties: {
    contact: {
      type: 'string',
      title: 'Contact last name',
      rules: {
        ajax: {
          value: {
            remoteUrl: '/users',
            method: 'post',
            paramName: 'lastName',
            otherParams: { ...MALLORY, roles: ['super-admin'] },
          },
        },
      },
    },
  },
};
