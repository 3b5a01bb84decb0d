# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for pfnmap(8); needs bash-completion (_init_completion).
#
# Commands, options, --width and --cache values, libpci methods and
# parameters, files for load, -o, -D and -m, and where a region or an
# address is expected the memory BARs as SLOT/barN (0000:00:04.0/bar2 and
# 00:04.0/bar2) and their devices' configuration space as SLOT/config. The BARs are pfnmap's own: `pfnmap -M bars`, run as the
# command being completed (the word typed, ./build/cli/pfnmap or pfnmap
# from PATH) with the libpci options on the command line (-A METHOD,
# -O NAME=VALUE), offers a BAR when its TYPE is memory and its START is not
# 0. It maps nothing and loads no module; its errors go to /dev/null.

# A word of the command line roughly as the shell would pass it, without
# running anything: a leading ~/ is $HOME, quotes and backslashes go
_pfnmap_unquote()
{
	local w=$1
	[[ $w == \~ || $w == \~/* ]] && w=$HOME${w#\~}
	w=${w//[\'\"\\]/}
	printf '%s\n' "$w"
}

# The libpci options on the command line, -A METHOD and -O NAME=VALUE, also
# as -AMETHOD and -vA METHOD, one word a line, as argv words for pfnmap.
# Options may come after the command too; -- ends them.
_pfnmap_pci_opts()
{
	local i j w c skip=0
	for ((i = 1; i < ${#words[@]}; i++)); do
		w=${words[i]}
		if ((skip)); then
			skip=0
			continue
		fi
		case $w in
		--) break ;;
		--cache | --width | --output | --device | --module | --timeout | \
			--interval) skip=1 ;;
		--*) ;;
		-?*)
			# a cluster of short options, getopt's way
			for ((j = 1; j < ${#w}; j++)); do
				c=${w:j:1}
				case $c in
				[AO])
					if ((j + 1 < ${#w})); then
						printf '%s\n' "-$c" \
							"$(_pfnmap_unquote "${w:j+1}")"
					elif ((i + 1 < ${#words[@]})); then
						printf '%s\n' "-$c" \
							"$(_pfnmap_unquote "${words[i + 1]}")"
						skip=1
					fi
					break
					;;
				[cwoDm])
					((j + 1 < ${#w})) || skip=1
					break
					;;
				esac
			done
			;;
		esac
	done
}

# `pfnmap -M bars` of the command being completed, with the command line's
# libpci options: SLOT VENDOR:DEVICE CLASS barN START SIZE BITS PREFETCH
# TYPE DRIVER, one line a BAR (pfnmap(8), Machine-readable output)
_pfnmap_bar_lines()
{
	local cmd
	local -a opts
	cmd=$(_pfnmap_unquote "${words[0]}")
	mapfile -t opts < <(_pfnmap_pci_opts)
	command -- "$cmd" "${opts[@]}" -M bars </dev/null 2>/dev/null
}

# SLOT/barN of every memory BAR with an address, long and short form
_pfnmap_bars()
{
	local slot bar start type last=
	# SLOT VENDOR:DEVICE CLASS barN START SIZE BITS PREFETCH TYPE DRIVER
	while read -r slot _ _ bar start _ _ _ type _; do
		[[ $type == memory && $start == 0x* && ! $start =~ ^0x0*$ ]] ||
			continue
		printf '%s/%s\n' "$slot" "$bar"
		[[ $slot == 0000:* ]] && printf '%s/%s\n' "${slot#0000:}" "$bar"
		# the device's configuration space, once (its lines are together)
		[[ $slot == "$last" ]] && continue
		last=$slot
		printf '%s/config\n' "$slot"
		[[ $slot == 0000:* ]] && printf '%s/config\n' "${slot#0000:}"
	done < <(_pfnmap_bar_lines)
}

# Filters for `bars`: the slots, long and short, and VENDOR:DEVICE of the
# devices `pfnmap bars` lists
_pfnmap_devices()
{
	local slot id rest
	while read -r slot id rest; do
		[[ $id == *:* && -n $rest ]] || continue
		printf '%s\n' "$slot"
		[[ $slot == 0000:* ]] && printf '%s\n' "${slot#0000:}"
		printf '%s\n' "$id"
	done < <(_pfnmap_bar_lines) | sort -u
}

_pfnmap_libpci()
{
	# lspci -A help / -O help list what this libpci knows
	local kind=$1 out
	if out=$(lspci "$kind" help 2>/dev/null); then
		printf '%s\n' "$out" | sed -n '3,$ s/^\([^ ]*\).*/\1/p'
	elif [[ $kind == -A ]]; then
		printf '%s\n' linux-sysfs linux-proc intel-conf1 intel-conf2 dump
	else
		printf '%s\n' sysfs.path proc.path dump.name
	fi
}

_pfnmap()
{
	local cur prev words cword split
	_init_completion -s -n : || return

	local commands="dump hexdump fill load read write set clear expect info bars cmp sum copy poll memtest batch"
	local longopts="--cache= --force --dry-run --width= --output= --device=
		--module= --no-load --machine --sysfs --quiet --verbose --help
		--max-diffs= --algo= --expect= --json
		--usage --version --timeout= --interval= --not --keep-going
		--progress --no-progress --tests= --loops= --seed= --max-errors="
	local shortopts="-c -f -n -w -o -D -m -A -M -O -q -v -? -V"

	case $prev in
	-w | --width)
		mapfile -t COMPREPLY < <(compgen -W "8 16 32 64" -- "$cur")
		return
		;;
	-c | --cache)
		mapfile -t COMPREPLY < <(compgen -W "auto uc wc wb" -- "$cur")
		return
		;;
	-o | --output | -D | --device)
		_filedir
		return
		;;
	-m | --module)
		_filedir ko
		return
		;;
	--timeout | --interval)
		# a duration needs its unit
		local d="1ms 10ms 100ms 1s"
		[[ $prev == --timeout ]] && d+=" 10s forever"
		mapfile -t COMPREPLY < <(compgen -W "$d" -- "$cur")
		return
		;;
	--tests)
		# a comma-separated list: complete the name after the last comma
		local done="" names="all default data-bus address-bus stuck-address random xor sub mul div or and seqinc solid-bits block-seq checkerboard bit-spread bit-flip walking-ones walking-zeros 8bit-writes 16bit-writes moving-inversions"
		[[ $cur == *,* ]] && done=${cur%,*},
		mapfile -t COMPREPLY < <(compgen -P "$done" -W "$names" \
			-- "${cur##*,}")
		compopt -o nospace
		return
		;;
	-A)
		mapfile -t COMPREPLY < <(compgen -W "$(_pfnmap_libpci -A)" \
			-- "$cur")
		return
		;;
	-O)
		if [[ $cur == *=* ]]; then
			local name=${cur%%=*}
			cur=${cur#*=}
			case $name in
			*.path) _filedir -d ;;
			dump.name) _filedir ;;
			esac
			local j
			for j in "${!COMPREPLY[@]}"; do
				COMPREPLY[j]=$name=${COMPREPLY[j]}
			done
		else
			mapfile -t COMPREPLY < <(compgen -S = -W \
				"$(_pfnmap_libpci -O)" -- "$cur")
			compopt -o nospace
		fi
		return
		;;
	esac
	$split && return

	# The command and how many of its arguments come before the cursor
	local i w cmd="" nargs=0 skip=0
	for ((i = 1; i < cword; i++)); do
		w=${words[i]}
		if ((skip)); then
			skip=0
		elif [[ $w == -- ]]; then
			continue
		elif [[ $w == @(-c|-w|-o|-D|-m|-A|-O|--cache|--width|--output|--device|--module|--timeout|--interval|--tests|--loops|--seed|--max-errors) ]]; then
			skip=1
		elif [[ $w == -* ]]; then
			continue
		elif [[ -z $cmd ]]; then
			cmd=$w
		else
			((nargs++))
		fi
	done

	if [[ $cur == -* ]]; then
		if [[ $cur == --* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "$longopts" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "$longopts $shortopts" \
				-- "$cur")
		fi
		[[ ${COMPREPLY-} == *= ]] && compopt -o nospace
		return
	fi

	case $cmd,$nargs in
	,*)
		mapfile -t COMPREPLY < <(compgen -W "$commands" -- "$cur")
		;;
	dump,0 | hexdump,0 | info,0 | fill,0 | load,0 | read,0 | write,0 | set,0 | clear,0 | expect,0 | cmp,[01] | sum,* | copy,[01] | poll,0 | memtest,0)
		mapfile -t COMPREPLY < <(compgen -W "$(_pfnmap_bars)" -- "$cur")
		__ltrim_colon_completions "$cur"
		;;
	load,1 | batch,0)
		_filedir
		;;
	bars,0)
		mapfile -t COMPREPLY < <(compgen -W "$(_pfnmap_devices)" \
			-- "$cur")
		__ltrim_colon_completions "$cur"
		;;
	esac
} && complete -F _pfnmap pfnmap
