/* cli.h - the warpsim command line: one function per subcommand. */
#ifndef WS_CLI_H
#define WS_CLI_H

/* warpsim run [options] PROGRAM|FILE.cu [args...] */
int cli_run(int argc, char **argv);
/* warpsim devices */
int cli_devices(int argc, char **argv);
/* warpsim occupancy ... */
int cli_occupancy(int argc, char **argv);
/* warpsim advise ... */
int cli_advise(int argc, char **argv);
/* warpsim ptx FILE.ptx: the decoded listing */
int cli_ptx(int argc, char **argv);
/* warpsim ptxas ARGS (or a link named ptxas): the toolkit's ptxas, keeping the PTX of the cubin it writes. */
int cli_ptxas(int argc, char **argv);
/* warpsim view REPORT.json [-o PAGE.html]: the view page of a run report */
int cli_view(int argc, char **argv);
/* warpsim explore [NAME [options]]: the teaching material's explorers */
int cli_explore(int argc, char **argv);

/* warpsim sweep [SPEC.toml] [options] [-- PROGRAM ARGS...]: a design-space sweep (sweep.h) */
int cli_sweep(int argc, char **argv);

#endif
