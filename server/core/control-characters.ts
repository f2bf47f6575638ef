/**
 * True when `value` holds a C0 control character (U+0000–U+001F) or DEL (U+007F): none of them
 * belongs in a path, file name or link the gallery accepts (docs/api.md).
 */
export function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
