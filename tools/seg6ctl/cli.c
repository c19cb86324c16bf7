// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "common.h"
#include "conn.h"
#include "json.h"
#include "libseg6x.h"
#include "parse.h"
#include "report.h"

/* The global options (-j, -p, -b...), set by main(). */
struct options opts;

int cli_help(const char *usage)
{
	fputs(usage, stdout);
	return EXIT_OK;
}

const struct cli_cmd *cli_lookup(const struct cli_cmd *cmds, const char *word)
{
	size_t len = strlen(word);
	const struct cli_cmd *c;

	for (c = cmds; c->name; c++)
		if (!strcmp(c->name, word))
			return c;
	if (!len)
		return NULL;
	/* As ip: the first in the table that @word begins (the tables list
	 * show before set, so that a short word never changes anything).
	 */
	for (c = cmds; c->name; c++)
		if (!strncmp(c->name, word, len))
			return c;
	return NULL;
}

/*
 * What a file for sync may hold: the commands that declare configuration
 * (add, replace and set of an object), not those that delete, show or
 * reset.
 */
static bool declares(const struct cli_object *object, const struct cli_cmd *cmd)
{
	return object && cmd->fn && (!strcmp(cmd->name, "add") ||
				     !strcmp(cmd->name, "replace") ||
				     !strcmp(cmd->name, "set"));
}

/* Runs @cmd; a failed ctl_* call is reported here, and only here. */
static int run(const struct cli_object *object, const struct cli_cmd *cmd,
	       int argc, char **argv)
{
	int status;

	if (cmd->object)
		return cli_dispatch(cmd->object, cmd->object->cmds, argc, argv);
	/* A file for sync declares what is to be, nothing else. */
	if (opts.collect && !declares(object, cmd))
		return usage_error("sync", "sync takes only commands that declare configuration (route and sid add or replace, hmac, tunsrc and iface set), not \"%s%s%s\"",
				   object ? object->name : "",
				   object ? " " : "", cmd->name);
	if (!cmd->fn)
		return cli_help(object->usage);
	/* Reads never bring back a module that was removed on purpose. */
	ctl_set_autoload(conn(), !cmd->reads);
	status = cmd->fn(argc, argv);
	return status < 0 ? report_ctl(status) : status;
}

int cli_dispatch(const struct cli_object *object, const struct cli_cmd *cmds,
		 int argc, char **argv)
{
	const char *name = object ? object->name : NULL;
	const char *what = object ? "command" : "object";
	const struct cli_cmd *cmd;

	if (argc == 0)
		return run(object, &cmds[0], 0, argv);
	cmd = cli_lookup(cmds, argv[0]);
	if (cmd)
		return run(object, cmd, argc - 1, argv + 1);
	return usage_error(name, "unknown %s \"%s\"", what, argv[0]);
}

int cli_no_args(const char *object, int argc)
{
	return argc > 0 ? usage_error(object, "too many arguments") : EXIT_OK;
}

/* Does @word spell @key, with '-' or nothing where @key has '_'? */
static bool key_spelled(const char *word, const char *key)
{
	for (; *word && *key; word++, key++) {
		if (*key == '_') {
			if (*word != '_' && *word != '-')
				word--;		/* no separator at all */
		} else if (*word != *key) {
			return false;
		}
	}
	return !*word && !*key;
}

static int key_index(const char *word, const char *const *keys, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (keys[i] && key_spelled(word, keys[i]))
			return (int)i;
	return -1;
}

int cli_keys_flags(const char *object, int argc, char **argv,
		   const char *const *keys, size_t n, unsigned int allowed,
		   unsigned int valueless, const char **val)
{
	while (argc > 0) {
		int key = key_index(argv[0], keys, n);

		if (key < 0 || !(allowed & 1u << key))
			return usage_error(object, "unknown argument \"%s\"", argv[0]);
		if (val[key])
			return usage_error(object, "%s given twice", keys[key]);
		if (valueless & 1u << key) {
			val[key] = "";
			argc--;
			argv++;
			continue;
		}
		if (argc < 2)
			return usage_error(object, "%s needs a value", argv[0]);
		val[key] = argv[1];
		argc -= 2;
		argv += 2;
	}
	return EXIT_OK;
}

int cli_keys(const char *object, int argc, char **argv,
	     const char *const *keys, size_t n, unsigned int allowed,
	     const char **val)
{
	return cli_keys_flags(object, argc, argv, keys, n, allowed, 0, val);
}

static int number_error(const char *object, const char *what, const char *s,
			int err, long long min, long long max)
{
	if (err == -ERANGE)
		return usage_error(object, "%s \"%s\" is out of range (%lld..%lld)",
				   what, s, min, max);
	return usage_error(object, "invalid %s \"%s\" (expected a number %lld..%lld)",
			   what, s, min, max);
}

int cli_u32(const char *object, const char *what, const char *s,
	    uint32_t min, uint32_t max, uint32_t *out)
{
	int err = parse_u32(s, min, max, out);

	return err ? number_error(object, what, s, err, min, max) : EXIT_OK;
}

int cli_s32(const char *object, const char *what, const char *s,
	    int32_t min, int32_t max, int32_t *out)
{
	int err = parse_s32(s, min, max, out);

	return err ? number_error(object, what, s, err, min, max) : EXIT_OK;
}

/* What the kernel takes as a device name (dev_valid_name()). */
static bool valid_ifname(const char *name)
{
	size_t len = strlen(name);

	return len && len < IF_NAMESIZE && strcmp(name, ".") &&
	       strcmp(name, "..") && !strpbrk(name, "/: \t\n");
}

/*
 * if_nametoindex() costs a socket, an ioctl and a close: per line of a
 * batch of routes, more than parsing the line. As ip's own cache of
 * names, the last few found are kept for the rest of the process (a
 * device deleted and created again meanwhile keeps its old index: the
 * kernel then refuses the request). What is not found is asked again.
 */
static uint32_t nametoindex(const char *name)
{
	static struct {
		char name[IF_NAMESIZE];
		uint32_t ifindex;
	} cache[4];
	static unsigned int next;
	unsigned int i;
	uint32_t ifindex;

	for (i = 0; i < ARRAY_SIZE(cache); i++)
		if (cache[i].ifindex && !strcmp(cache[i].name, name))
			return cache[i].ifindex;
	ifindex = if_nametoindex(name);
	if (ifindex && strlen(name) < IF_NAMESIZE) {
		i = next++ % ARRAY_SIZE(cache);
		strcpy(cache[i].name, name);
		cache[i].ifindex = ifindex;
	}
	return ifindex;
}

int cli_ifindex(const char *name, uint32_t *ifindex)
{
	/*
	 * -c checks files for another machine: its devices are not here.
	 * sync reads its whole file before it changes anything: a device
	 * that is missing (0) fails the step that needs it, not the file.
	 */
	if (opts.check || opts.collect) {
		if (!valid_ifname(name))
			return usage_error(NULL, "invalid device name \"%s\"", name);
		*ifindex = nametoindex(name) ?: (opts.check ? 1 : 0);
		return EXIT_OK;
	}
	/* if_nametoindex() asks through a socket of the current netns. */
	*ifindex = nametoindex(name);
	if (!*ifindex) {
		pr_err("cannot find device \"%s\"", name);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

const char *cli_ifname(uint32_t ifindex, char buf[IF_NAMESIZE])
{
	if (!if_indextoname(ifindex, buf))
		snprintf(buf, IF_NAMESIZE, "if%u", ifindex);
	return buf;
}

const char *cli_name_or_number(const char *name, unsigned int value,
			       char buf[11])
{
	if (name)
		return name;
	snprintf(buf, 11, "%u", value);
	return buf;
}

void cli_print_list(const void *items, size_t n, size_t size,
		    void (*print)(struct json_writer *jw, const void *item))
{
	struct json_writer jw;
	size_t i;

	json_init(&jw, stdout, opts.pretty);
	if (opts.json)
		json_open_array(&jw, NULL);
	for (i = 0; i < n; i++)
		print(opts.json ? &jw : NULL, (const char *)items + i * size);
	if (opts.json)
		json_close_array(&jw);
}
