import type { ClientLogger } from '@confbus/client';

/** A logger that keeps every line (`level: message`) and lets a test react to one as it is logged. */
export class CaptureLogger implements ClientLogger {
  readonly lines: string[] = [];
  private readonly hooks: Array<(line: string) => void> = [];

  onLine(hook: (line: string) => void): void {
    this.hooks.push(hook);
  }

  private log(level: string, message: string): void {
    const line = `${level}: ${message}`;
    this.lines.push(line);
    for (const hook of this.hooks) hook(line);
  }

  debug(message: string): void {
    this.log('debug', message);
  }
  info(message: string): void {
    this.log('info', message);
  }
  warn(message: string): void {
    this.log('warn', message);
  }
  error(message: string): void {
    this.log('error', message);
  }
}
