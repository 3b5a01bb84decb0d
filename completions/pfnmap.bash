# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for pfnmap(8); needs bash-completion (_init_completion).
#
# Commands, options, --width and --cache values, libpci methods and
# parameters, files for load, -o, -D and -m, and where a region or an
# address is expected the memory BARs of the running system as
# SLOT/barN (0000:00:04.0/bar2 and 00:04.0/bar2). BARs are read from
# ${PFNMAP_SYSFS:-/sys}/bus/pci/devices, or from DIR/devices when the
# command line has -O sysfs.path=DIR; a BAR is offered when its line in
# the device's resource file is memory (flags & 0x200) with an address
# (start or end non-zero, not IORESOURCE_UNSET 0x20000000).

# The directory libpci would read: -O sysfs.path=DIR, else the sysfs root
_pfnmap_pci_dir()
{
	local i w
	for ((i = 1; i < ${#words[@]}; i++)); do
		w=${words[i]}
		if [[ $w == -O && $((i + 1)) -lt ${#words[@]} ]]; then
			w=${words[i + 1]}
		elif [[ $w == -O?* ]]; then
			w=${w#-O}
		else
			continue
		fi
		if [[ $w == sysfs.path=?* ]]; then
			printf '%s\n' "${w#sysfs.path=}"
			return
		fi
	done
	printf '%s\n' "${PFNMAP_SYSFS:-/sys}/bus/pci"
}

# SLOT/barN of every memory BAR that has an address, long and short form
_pfnmap_bars()
{
	local dir d slot i start end flags
	dir=$(_pfnmap_pci_dir)
	for d in "$dir"/devices/*; do
		[[ -r $d/resource ]] || continue
		slot=${d##*/}
		i=0
		while ((i < 6)) && read -r start end flags; do
			if [[ $start == 0x* && $end == 0x* && $flags == 0x* ]] &&
				((flags & 0x200 && !(flags & 0x20000000) &&
				(start != 0 || end != 0))); then
				printf '%s/bar%d\n' "$slot" "$i"
				[[ $slot == 0000:* ]] &&
					printf '%s/bar%d\n' "${slot#0000:}" "$i"
			fi
			((i++))
		done <"$d/resource"
	done
}

# Filters for `bars`: slots, long and short, and VENDOR:DEVICE
_pfnmap_devices()
{
	local dir d slot v id
	dir=$(_pfnmap_pci_dir)
	for d in "$dir"/devices/*; do
		[[ -e $d ]] || continue
		slot=${d##*/}
		printf '%s\n' "$slot"
		[[ $slot == 0000:* ]] && printf '%s\n' "${slot#0000:}"
		if read -r v <"$d/vendor" && read -r id <"$d/device"; then
			printf '%s:%s\n' "${v#0x}" "${id#0x}"
		fi 2>/dev/null
	done | sort -u
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

	local commands="dump hexdump fill load read write info bars"
	local longopts="--cache= --force --dry-run --width= --output= --device=
		--module= --no-load --machine --sysfs --quiet --verbose --help
		--usage --version"
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
		elif [[ $w == @(-c|-w|-o|-D|-m|-A|-O|--cache|--width|--output|--device|--module) ]]; then
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
	dump,0 | hexdump,0 | info,0 | fill,0 | load,0 | read,0 | write,0)
		mapfile -t COMPREPLY < <(compgen -W "$(_pfnmap_bars)" -- "$cur")
		__ltrim_colon_completions "$cur"
		;;
	load,1)
		_filedir
		;;
	bars,0)
		mapfile -t COMPREPLY < <(compgen -W "$(_pfnmap_devices)" \
			-- "$cur")
		__ltrim_colon_completions "$cur"
		;;
	esac
} && complete -F _pfnmap pfnmap
