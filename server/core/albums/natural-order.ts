/** Natural file-name order: IMG_2.jpg before IMG_10.jpg, case-insensitive. */
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

export const naturalCompare = (a: string, b: string): number => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
