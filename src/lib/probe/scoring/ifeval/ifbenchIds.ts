/**
 * IFBench's instruction ids this app checks, as plain data: the dataset's description counts and
 * names them, and set-up shows it before any scorer is needed, so the lists must not bring the
 * checkers (ifbench.ts, ifbenchNlp.ts) with them. A test holds each list equal to its table's keys.
 */

/** The instructions that need only the text: IFBENCH_INSTRUCTIONS' keys. */
export const IFBENCH_TEXT_IDS: readonly string[] = [
	'count:word_count_range',
	'count:unique_word_count',
	'count:conjunctions',
	'count:numbers',
	'count:punctuation',
	'ratio:overlap',
	'words:alphabet',
	'words:vowel',
	'words:consonants',
	'words:palindrome',
	'words:prime_lengths',
	'words:paragraph_last_first',
	'words:no_consecutive',
	'format:parentheses',
	'format:quotes',
	'format:options',
	'format:newline',
	'format:line_indent',
	'format:list',
	'format:thesis',
	'format:sub-bullets',
	'format:quote_unquote',
	'format:no_whitespace',
	'format:output_template',
	'count:keywords_multiple',
	'count:words_japanese',
	'words:repeats',
	'repeat:repeat_simple',
	'repeat:repeat_change',
	'repeat:repeat_span',
	'custom:multiples',
	'custom:character_reverse',
	'count:person_names',
	'custom:european_capitals_sort',
	'custom:reverse_newline',
	'custom:date_format_list',
	'custom:mcq_count_length',
	'custom:csv_city',
	'custom:csv_special_character',
	'custom:csv_quotes'
];

/** The instructions that need NLTK's English data or syllapy's word list: IFBENCH_NLP_INSTRUCTIONS' keys. */
export const IFBENCH_NLP_IDS: readonly string[] = [
	'count:pronouns',
	'custom:sentence_alphabet',
	'custom:word_reverse',
	'format:emoji',
	'format:no_bullets_bullets',
	'format:title_case',
	'ratio:sentence_balance',
	'ratio:sentence_type',
	'ratio:sentence_words',
	'ratio:stop_words',
	'sentence:alliteration_increment',
	'sentence:increment',
	'sentence:keyword',
	'words:keywords_specific_position',
	'words:last_first',
	'words:odd_even_syllables',
	'words:start_verb',
	'words:words_position'
];
