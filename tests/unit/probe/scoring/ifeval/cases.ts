/**
 * Hand-written responses for every IFEval instruction: ones that follow it and ones that break
 * it, with the reason a reader might not guess in `why`.
 */
import type { Kwargs } from '../../../../../src/lib/probe/scoring/ifeval/index.ts';

export interface InstructionCase {
	id: string;
	kwargs: Kwargs;
	follows: string[];
	breaks: string[];
	why?: string;
}

const END = 'Is there anything else I can help with?';

export const INSTRUCTION_CASES: InstructionCase[] = [
	{
		id: 'change_case:capital_word_frequency',
		kwargs: { capital_frequency: 3, capital_relation: 'at least' },
		follows: ['The NASA and ESA teams met at CERN.', "I DON'T know."],
		breaks: ['The Nasa team met at Cern.', 'A WELL-KNOWN fact.'],
		why: "DON'T splits in two like nltk's DO + N'T; a hyphenated word is one word"
	},
	{
		id: 'change_case:capital_word_frequency',
		kwargs: { capital_frequency: 2, capital_relation: 'less than' },
		follows: ['Only ONE shouted word.', 'No shouting here, 2024.'],
		breaks: ['WE ARE LOUD.']
	},
	{
		id: 'change_case:english_capital',
		kwargs: {},
		follows: ['THIS IS ALL IN CAPITAL LETTERS AND IT IS ENGLISH, 100%.'],
		breaks: [
			'This is mixed case English.',
			'ESTO ES TODO EN MAYÚSCULAS Y ES ESPAÑOL PARA LA PRUEBA.'
		],
		why: 'capitals in another language fail the English half'
	},
	{
		id: 'change_case:english_lowercase',
		kwargs: {},
		follows: ['this is all lowercase english text about the weather in the park.'],
		breaks: ['This has one capital.', 'isto é um texto em português e não em inglês.']
	},
	{
		id: 'combination:repeat_prompt',
		kwargs: { prompt_to_repeat: 'Write a poem about the sea.' },
		follows: [
			'Write a poem about the sea.\nThe sea is wide.',
			'  write a POEM about the sea. Waves.'
		],
		breaks: ['Sure! Write a poem about the sea.\nThe sea is wide.', 'Write a poem about a sea.']
	},
	{
		id: 'combination:two_responses',
		kwargs: {},
		follows: ['First answer.\n******\nSecond answer.', '******\nOne.\n******\nTwo.\n******'],
		breaks: ['Same.\n******\nSame.', 'One.\n******\n\n******\nTwo.', 'Only one answer.'],
		why: 'blank parts are allowed only at the ends, and the two answers must differ'
	},
	{
		id: 'detectable_content:number_placeholders',
		kwargs: { num_placeholders: 2 },
		follows: ['Dear [name], see you at [address].'],
		breaks: ['Dear [name], see you soon.', 'Dear [name\n], see you at (address).']
	},
	{
		id: 'detectable_content:postscript',
		kwargs: { postscript_marker: 'P.S.' },
		follows: ['Thanks!\n\nP.S. Bring snacks.', 'Thanks! p. s. bring snacks'],
		breaks: ['Thanks! PS bring snacks.', 'Thanks!\n\nP.P.S bring snacks.'],
		why: '"P.P.S" has no "p.s." inside it: the second p is followed by "s", not "s."'
	},
	{
		id: 'detectable_content:postscript',
		kwargs: { postscript_marker: 'P.P.S' },
		follows: ['Bye.\nP.P.S see you', 'Bye. p.p.s. see you'],
		breaks: ['Bye.\nP.S. see you']
	},
	{
		id: 'detectable_format:constrained_response',
		kwargs: {},
		follows: ['My answer is yes.', 'After thinking: My answer is maybe.'],
		breaks: ['Yes.', 'my answer is yes.', 'My answer is yes']
	},
	{
		id: 'detectable_format:json_format',
		kwargs: {},
		follows: ['```json\n{"a": 1}\n```', '{"a": [1, 2]}', '```\n[true, null]\n```'],
		breaks: ['Here is JSON: {"a": 1}', "{'a': 1}", '```json\n{"a": 1}\n```\nHope this helps!']
	},
	{
		id: 'detectable_format:multiple_sections',
		kwargs: { section_spliter: 'SECTION', num_sections: 2 },
		follows: [
			'SECTION 1\nIntro.\nSECTION 2\nBody.',
			'SECTION 1 Intro. SECTION 2 Body. SECTION 3 End.'
		],
		breaks: ['Section 1\nIntro.\nSection 2\nBody.', 'SECTION 1\nOnly one.', 'SECTION A\nSECTION B'],
		why: 'the splitter is case-sensitive and must be followed by a number'
	},
	{
		id: 'detectable_format:number_bullet_lists',
		kwargs: { num_bullets: 3 },
		follows: ['* one\n* two\n- three', 'Intro:\n  * one\n  * two\n  * three\nDone.'],
		breaks: [
			'* one\n* two',
			'* one\n* two\n* three\n* four',
			'**Bold** one\n**Bold** two\n* three'
		],
		why: 'a "**bold**" line is not a bullet'
	},
	{
		id: 'detectable_format:number_highlighted_sections',
		kwargs: { num_highlights: 2 },
		follows: ['*first part* and **second part**', '*a*\n*b*'],
		breaks: ['*only one part*', '** ** and * *', '*spans\ntwo lines*'],
		why: 'empty highlights and highlights across a newline do not count'
	},
	{
		id: 'detectable_format:title',
		kwargs: {},
		follows: ['<<My Poem>>\nRoses are red.', 'Here: <<A title>>'],
		breaks: ['<< >>\nRoses are red.', 'My Poem\nRoses are red.', '<<\n>>']
	},
	{
		id: 'keywords:existence',
		kwargs: { keywords: ['moon', 'river'] },
		follows: ['The Moon rose over the riverbank.'],
		breaks: ['The moon rose alone.'],
		why: 'matched case-insensitively and inside longer words, as the reference does'
	},
	{
		id: 'keywords:forbidden_words',
		kwargs: { forbidden_words: ['happy', 'sad'] },
		follows: ['A study of happiness and sadness.', 'Nothing to see.'],
		breaks: ['I am SAD today.', 'Happy birthday!'],
		why: 'forbidden words match whole words only'
	},
	{
		id: 'keywords:frequency',
		kwargs: { keyword: 'data', frequency: 3, relation: 'at least' },
		follows: ['Data, data and a database.'],
		breaks: ['data and more data.']
	},
	{
		id: 'keywords:frequency',
		kwargs: { keyword: 'data', frequency: 2, relation: 'less than' },
		follows: ['data once', 'no keyword at all'],
		breaks: ['data, DATA']
	},
	{
		id: 'keywords:letter_frequency',
		kwargs: { letter: 'q', let_frequency: 2, let_relation: 'at least' },
		follows: ['Quick quiz.'],
		breaks: ['A quick one.']
	},
	{
		id: 'keywords:letter_frequency',
		kwargs: { letter: 'e', let_frequency: 3, let_relation: 'less than' },
		follows: ['A bee.'],
		breaks: ['Eleven trees.']
	},
	{
		id: 'language:response_language',
		kwargs: { language: 'hi' },
		follows: ['हिंदी भारत की सबसे अधिक बोली जाने वाली भाषा है और यह बहुत सुंदर है।', '42 + 7 = 49'],
		breaks: ['Hindi is widely spoken in India and it is a beautiful language.'],
		why: 'text without letters cannot be detected and counts as followed'
	},
	{
		id: 'length_constraints:nth_paragraph_first_word',
		kwargs: { num_paragraphs: 3, nth_paragraph: 2, first_word: 'however' },
		follows: ['Intro.\n\nHowever, this.\n\nEnd.', 'Intro.\n\n"However," she said.\n\nEnd.'],
		breaks: ['Intro.\n\nBut this.\n\nEnd.', 'Intro.\n\nHowever, this.', 'Intro.\nHowever.\nEnd.']
	},
	{
		id: 'length_constraints:number_paragraphs',
		kwargs: { num_paragraphs: 3 },
		follows: ['One.\n***\nTwo.\n***\nThree.', '***\nOne.\n***\nTwo.\n***\nThree.\n***'],
		breaks: ['One.\n***\nTwo.', 'One.\n***\n***\nThree.', 'One.\n\nTwo.\n\nThree.'],
		why: 'only "***" divides paragraphs, and a blank middle paragraph fails'
	},
	{
		id: 'length_constraints:number_sentences',
		kwargs: { num_sentences: 3, relation: 'less than' },
		follows: ['One. Two.', 'A list\n- without\n- periods'],
		breaks: ['One. Two! Three?']
	},
	{
		id: 'length_constraints:number_sentences',
		kwargs: { num_sentences: 3, relation: 'at least' },
		follows: ['Dr. Smith came. He sat down. He left.'],
		breaks: ['Dr. Smith came. He left.', 'We met Mr. Brown, e.g. at work. Bye.']
	},
	{
		id: 'length_constraints:number_words',
		kwargs: { num_words: 5, relation: 'at least' },
		follows: ['one two three four five', 'well-known state-of-the-art'],
		breaks: ['one two three four', '... !!! ---'],
		why: 'words are \\w+ runs, so hyphens split words'
	},
	{
		id: 'length_constraints:number_words',
		kwargs: { num_words: 3, relation: 'less than' },
		follows: ['Two words.'],
		breaks: ["It's three words."]
	},
	{
		id: 'punctuation:no_comma',
		kwargs: {},
		follows: ['No commas here.', 'Chinese commas，are fine'],
		breaks: ['One, two.']
	},
	{
		id: 'startend:end_checker',
		kwargs: { end_phrase: END },
		follows: [`Done. ${END}  `, `"Done. ${END.toLowerCase()}"`],
		breaks: [`${END} Bye.`, `Done. ${END}!`]
	},
	{
		id: 'startend:quotation',
		kwargs: {},
		follows: ['"Hello there."', '  "Multi\nline"  '],
		breaks: ['Hello "there"', '"', '“Curly quotes”']
	}
];
