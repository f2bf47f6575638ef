/** A setting that cannot be used, its message naming the variable (and the file it came from). */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
