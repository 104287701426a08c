// The choices clients may send: highlight.js language names and aliases, highlight.js themes plus `friendly`.
import hljs from 'highlight.js';
import { THEME_NAMES } from './themes';

export interface Choice {
  value: string;
  display_name: string;
}

const byValue = (a: Choice, b: Choice) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);

function languages(): Choice[] {
  const choices = new Map<string, string>();
  for (const name of hljs.listLanguages()) {
    const language = hljs.getLanguage(name)!;
    choices.set(name, language.name ?? name);
    for (const alias of language.aliases ?? []) if (!choices.has(alias)) choices.set(alias, language.name ?? alias);
  }
  return [...choices].map(([value, display_name]) => ({ value, display_name })).sort(byValue);
}

export const LANGUAGE_CHOICES: readonly Choice[] = Object.freeze(languages());
export const STYLE_CHOICES: readonly Choice[] = Object.freeze(THEME_NAMES.map((value) => ({ value, display_name: value })).sort(byValue));

const languageSet = new Set(LANGUAGE_CHOICES.map((c) => c.value));
const styleSet = new Set(STYLE_CHOICES.map((c) => c.value));

export const isLanguage = (name: string): boolean => languageSet.has(name);
export const isStyle = (name: string): boolean => styleSet.has(name);
