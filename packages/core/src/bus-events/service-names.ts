/**
 * Which services a changed config file concerns, as spring-cloud-config-monitor guesses it (3.1.5+): the file's
 * stem and each prefix obtained by stripping the last `-suffix`, with `application` (shared by all) meaning `*`.
 */
export function guessServiceNames(paths: readonly string[]): string[] {
  const services = new Set<string>();
  for (const path of paths) {
    let stem = stripExtension(fileName(path));
    if (stem === '') continue;
    for (;;) {
      services.add(stem === 'application' ? '*' : stem);
      const dash = stem.lastIndexOf('-');
      if (dash <= 0) break;
      stem = stem.slice(0, dash);
    }
  }
  return [...services];
}

/** The last path element; webhook paths may use either separator. */
function fileName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

function stripExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? name : name.slice(0, dot);
}
