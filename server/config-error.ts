/** A setting that is missing or wrong: the HTTP edge answers 500 "not configured" and logs the message. */
export class ConfigError extends Error {
  override name = "ConfigError";
}
