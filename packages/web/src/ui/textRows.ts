/**
 * How many rows a text box shows for `text`: its lines, between `min` and `max`. antd's autoSize
 * measures with a hidden text box given a style attribute, which the content security policy
 * refuses; counting lines needs no measuring.
 */
export function textRows(text: string, min: number, max: number): number {
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1 && lines < max; i = text.indexOf('\n', i + 1)) lines += 1;
  return Math.min(max, Math.max(min, lines));
}
