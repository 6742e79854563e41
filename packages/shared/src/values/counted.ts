/** A count with its noun agreeing in number: '1 problem', '2 problems', '0 rows'. */
export function counted(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
