import { describe, expect, it } from 'vitest';
import { FieldNames, NotJsonObjectError, pickFields } from '../../../src/cli/jsonFields.ts';

const NAMES = new FieldNames(['run_id', 'key', 'label']);
const pick = (text: string) => pickFields(Buffer.from(text), NAMES);

describe('pickFields', () => {
	it.each([
		{ text: '{"run_id":"r","key":"k","label":"x"}', want: { run_id: 'r', key: 'k', label: 'x' } },
		{ text: '{ "label" : null , "key":"k" }', want: { label: null, key: 'k' } },
		{ text: '{}', want: {} },
		{ text: '{"other":1}', want: {} },
		// Escapes decode as JSON says, including a quote, a backslash before the closing quote and
		// a key spelled with an escape.
		{ text: '{"key":"a\\"b\\\\","run_id":"\\u00e9"}', want: { key: 'a"b\\', run_id: 'é' } },
		{ text: '{"k\\u0065y":"k"}', want: { key: 'k' } },
		// A field of the same name inside a nested value or a string is not the record's.
		{
			text: '{"usage":{"key":"no","label":[1,{"x":"}"}]},"text":"\\"key\\":\\"no\\"","key":"yes"}',
			want: { key: 'yes' }
		},
		{
			text: '{"key":"ü ☃ 😀","n":-1.5e3,"t":true,"z":false,"label":"é"}',
			want: { key: 'ü ☃ 😀', label: 'é' }
		}
	])('reads only the wanted top-level fields of $text', ({ text, want }) => {
		expect(pick(text)).toEqual(want);
		// The same values JSON.parse gives for those fields.
		const whole = JSON.parse(text) as Record<string, unknown>;
		for (const [k, v] of Object.entries(want)) expect(whole[k]).toEqual(v);
	});

	it.each([
		'',
		'[1,2]',
		'{"key":"k"',
		'{"key":"k",',
		'{"key":"unterminated}',
		'{"key" "k"}',
		'{"key":"k"} trailing',
		'{"key":}',
		'{"run_id":"r","key":"k","usage":{"a":1}',
		'not json at all'
	])('refuses %j as not a JSON object', (text) => {
		expect(() => pick(text)).toThrow(NotJsonObjectError);
	});
});
