import { _, type Ajv, type KeywordCxt, str } from 'ajv';

/** A string's characters (code points): a surrogate pair is one, as the interface and Ajv count them. */
export function characterCount(text: string): number {
  let count = 0;
  for (let at = 0; at < text.length; at++) {
    count++;
    const unit = text.charCodeAt(at);
    if (unit >= 0xd800 && unit <= 0xdbff && at + 1 < text.length && (text.charCodeAt(at + 1) & 0xfc00) === 0xdc00) at++;
  }
  return count;
}

/**
 * `maxLength` and `minLength` as Ajv checks them (characters, the same errors), with the characters counted only
 * where the string's length in UTF-16 units leaves the answer open: a string has at most as many characters as
 * units, and at least half as many. Ajv counts every string's characters, one by one, which cost a create body's
 * checks more than any other keyword (docs/performance.md). Placed before `pattern`, where Ajv has its own, so
 * that a string's errors keep their order.
 */
export function withCharacterLengths(ajv: Ajv): Ajv {
  ajv.removeKeyword('maxLength');
  ajv.removeKeyword('minLength');
  ajv.addKeyword({
    keyword: ['maxLength', 'minLength'],
    type: 'string',
    schemaType: 'number',
    $data: true,
    before: 'pattern',
    error: {
      message: ({ keyword, schemaCode }) => str`must NOT have ${keyword === 'maxLength' ? 'more' : 'fewer'} than ${schemaCode} characters`,
      params: ({ schemaCode }) => _`{limit: ${schemaCode}}`,
    },
    code(cxt: KeywordCxt) {
      const { keyword, data, schemaCode, gen } = cxt;
      const count = gen.scopeValue('func', { ref: characterCount });
      cxt.fail$data(
        keyword === 'maxLength'
          ? _`${data}.length > ${schemaCode} && ${count}(${data}) > ${schemaCode}`
          : _`${data}.length < ${schemaCode} || (${data}.length < 2 * ${schemaCode} && ${count}(${data}) < ${schemaCode})`,
      );
    },
  });
  return ajv;
}
