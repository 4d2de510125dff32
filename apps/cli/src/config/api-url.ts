/** Where the api is: `--url`, else this variable, else the default. */
export const URL_ENV = 'GPUMKT_URL';
export const DEFAULT_URL = 'http://127.0.0.1:3000';
