import type { SdkFunction } from '@gdb/shared/sdk/sdk.schemas';

type SdkModule = SdkFunction['modules'][number];

/** A module as the form's list shows it: `name@version`, or the name alone when no version is set. */
const moduleText = (m: SdkModule): string => (m.version ? `${m.name}@${m.version}` : m.name);

/** The modules as the form edits them. */
export const formModules = (modules: readonly SdkModule[]): string[] => modules.map(moduleText);

/**
 * A `name@version` text read back: the version follows the last `@` that is not the first
 * character (a scoped name starts with one); without it the version is empty.
 */
export function parseModule(text: string): SdkModule {
  const trimmed = text.trim();
  const at = trimmed.lastIndexOf('@');
  if (at <= 0) return { name: trimmed, version: '' };
  return { name: trimmed.slice(0, at), version: trimmed.slice(at + 1) };
}

/** The form's list of modules as the save sends it; anything but texts is left out. */
export const savedModules = (value: unknown): SdkModule[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map(parseModule) : [];
