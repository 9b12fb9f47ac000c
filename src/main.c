/* tracetop: parse the command line, then run one command. */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

int main(int argc, char **argv)
{
	struct cli c;
	setlocale(LC_ALL, "");
	/* numbers are always read and written with a '.' */
	setlocale(LC_NUMERIC, "C");
	int rc = cli_parse(&c, argc, argv);
	if (rc == 0) {
		if (strcmp(c.cmd, "report") == 0)
			rc = cmd_report(&c);
		else if (strcmp(c.cmd, "demo-trace") == 0)
			rc = cmd_demo_trace(&c);
		else if (strcmp(c.cmd, "summarize") == 0)
			rc = cmd_summarize(&c);
		else if (strcmp(c.cmd, "counters") == 0)
			rc = cmd_counters(&c);
		else
			rc = cmd_tui(&c);
	} else if (rc == 1) {
		rc = 0;
	}
	cli_free(&c);
	return rc;
}
