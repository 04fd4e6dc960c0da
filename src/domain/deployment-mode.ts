/**
 * Whether this Worker runs as local development, decided once for every check that depends on it (outbound loopback,
 * localhost as an accepted Host and Origin). It fails closed: only CAIRN_ENV exactly "development" is development;
 * production, unset, misspelt, another case, "dev" or "staging" are a deployment on the Internet.
 */
export const isDevelopment = (cairnEnv: string | undefined): boolean => cairnEnv === "development";
