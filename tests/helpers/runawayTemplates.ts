/** Chat templates a careless or hostile user supplies, shared by the core, CLI and e2e tests. */
import type { ChatTemplate } from '../../src/lib/probe/template.ts';

export const CHATML =
	'{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}' +
	'{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}';

/** A ChatML template with `prefix` run before it on every render. */
export const withPrefix = (prefix: string): ChatTemplate => ({
	source: prefix + CHATML,
	bos_token: null,
	eos_token: '<|im_end|>'
});

/** Templates a careless or hostile user supplies, each with what the message must say. */
export const RUNAWAY_TEMPLATES: Record<string, { prefix: string; says: RegExp }> = {
	'a loop of 3000 × 3000': {
		prefix: '{% for i in range(3000) %}{% for j in range(3000) %}{% endfor %}{% endfor %}',
		says: /ran longer than 2 s/
	},
	'range(300000000)': {
		prefix: '{% for i in range(300000000) %}{% endfor %}',
		says: /range\(\) of 300,000,000 items/
	},
	'100 MB per render': {
		prefix:
			"{% set ns = namespace(s='x') %}{% for i in range(27) %}{% set ns.s = ns.s ~ ns.s %}" +
			'{% endfor %}{{ ns.s }}',
		says: /built a text of [\d,]+ characters/
	},
	// 32,769 items: over the list cap by far, yet built in milliseconds, so the list limit (not the
	// time limit) is what a loaded machine hits first.
	'a huge list from split': {
		prefix:
			"{% set ns = namespace(s='x,') %}{% for i in range(15) %}{% set ns.s = ns.s ~ ns.s %}" +
			"{% endfor %}{% for c in ns.s.split(',') %}{% endfor %}",
		says: /a list of 32,769 items/
	}
};
