import { seededRandom } from './seeded-random.ts';

/** Characters a cell is made of, the ones that make it a formula or need quoting among them. */
const ALPHABET = ['=', '+', '-', '@', '\t', '\r', '\n', '\r\n', '"', ',', ' ', "'", 'a', 'Z', '1', '.', '\uFEFF', 'é', '🚀'];

/**
 * Texts for CSV cells, the same for the same seed: each a few characters of `ALPHABET`, so that
 * formula characters, line breaks, quotes and commas meet at every place of a cell.
 */
export function generatedCells(seed: number, count: number): string[] {
  const random = seededRandom(seed);
  const pick = () => ALPHABET[Math.floor(random() * ALPHABET.length)] ?? '';
  return Array.from({ length: count }, () => {
    const length = Math.floor(random() * 8);
    let text = '';
    for (let i = 0; i < length; i++) text += pick();
    return text;
  });
}

/** Whether a spreadsheet would read the text of a cell it opened as a formula. */
export function readAsFormula(text: string): boolean {
  return /^[=+\-@\t\r]/.test(text) && String(Number(text)) !== text;
}
