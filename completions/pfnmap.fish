# SPDX-License-Identifier: GPL-2.0-or-later
#
# fish completion for pfnmap(8): commands, options, --width and --cache
# values, libpci methods and parameters, files for load, -o, -D and -m,
# and where a region or an address is expected the memory BARs as
# SLOT/barN (0000:00:04.0/bar2 and 00:04.0/bar2) and their devices'
# configuration space as SLOT/config. The BARs are pfnmap's
# own: `pfnmap -M bars`, run as the command being completed (the word
# typed, ./build/cli/pfnmap or pfnmap from PATH) with the libpci options on
# the command line (-A METHOD, -O NAME=VALUE), offers a BAR when its TYPE
# is memory and its START is not 0. It maps nothing and loads no module;
# its errors go to /dev/null.

# A leading ~ of a token is $HOME
function __pfnmap_tilde
    string replace -r -- '^~(?=/|$)' $HOME $argv[1]
end

# The libpci options on the command line, -A METHOD and -O NAME=VALUE, also
# as -AMETHOD and -vA METHOD, one word a line, as argv words for pfnmap.
# Options may come after the command too; -- ends them.
function __pfnmap_pci_opts
    set -l tokens (commandline -op)
    set -l n (count $tokens)
    set -l skip 0
    for i in (seq 2 $n)
        set -l w $tokens[$i]
        if test $skip = 1
            set skip 0
            continue
        end
        if test "$w" = --
            break
        else if contains -- $w --cache --width --output --device --module
            set skip 1
        else if string match -qr -- '^-[^-]' $w
            # a cluster of short options, getopt's way
            set -l len (string length -- $w)
            for j in (seq 2 $len)
                set -l c (string sub -s $j -l 1 -- $w)
                if contains -- $c A O
                    if test $j -lt $len
                        printf '%s\n' -$c (__pfnmap_tilde (string sub -s (math $j + 1) -- $w))
                    else if test $i -lt $n
                        printf '%s\n' -$c (__pfnmap_tilde $tokens[(math $i + 1)])
                        set skip 1
                    end
                    break
                else if contains -- $c c w o D m
                    test $j -lt $len; or set skip 1
                    break
                end
            end
        end
    end
end

# `pfnmap -M bars` of the command being completed, with the command line's
# libpci options: SLOT VENDOR:DEVICE CLASS barN START SIZE BITS PREFETCH
# TYPE DRIVER, one line a BAR (pfnmap(8), Machine-readable output)
function __pfnmap_bar_lines
    set -l cmd (__pfnmap_tilde (commandline -op)[1])
    set -l opts (__pfnmap_pci_opts)
    # fish itself would complain of a command that is not there
    command -q -- $cmd; or return
    command $cmd $opts -M bars </dev/null 2>/dev/null
end

# SLOT/barN of every memory BAR with an address, long and short form
function __pfnmap_bars
    set -l last
    for line in (__pfnmap_bar_lines)
        set -l f (string split ' ' -- $line)
        test "$f[9]" = memory; or continue
        string match -qr '^0x[0-9a-fA-F]*[1-9a-fA-F]' -- $f[5]; or continue
        printf '%s/%s\tPCI BAR\n' $f[1] $f[4]
        string match -q '0000:*' -- $f[1]
        and printf '%s/%s\tPCI BAR\n' (string sub -s 6 -- $f[1]) $f[4]
        # the device's configuration space, once (its lines are together)
        test "$f[1]" = "$last"; and continue
        set last $f[1]
        printf '%s/config\tPCI config space\n' $f[1]
        string match -q '0000:*' -- $f[1]
        and printf '%s/config\tPCI config space\n' (string sub -s 6 -- $f[1])
    end
end

# Filters for `bars`: the slots, long and short, and VENDOR:DEVICE of the
# devices `pfnmap bars` lists
function __pfnmap_devices
    for line in (__pfnmap_bar_lines)
        set -l f (string split ' ' -- $line)
        test (count $f) -ge 3; and string match -q '*:*' -- $f[2]; or continue
        printf '%s\tPCI slot\n' $f[1]
        string match -q '0000:*' -- $f[1]
        and printf '%s\tPCI slot\n' (string sub -s 6 -- $f[1])
        printf '%s\tVENDOR:DEVICE\n' $f[2]
    end | sort -u
end

function __pfnmap_libpci
    set -l out (lspci $argv[1] help 2>/dev/null)
    if test (count $out) -gt 2
        string replace -r ' .*' '' -- $out[3..-1]
    else if test "$argv[1]" = -A
        printf '%s\n' linux-sysfs linux-proc intel-conf1 intel-conf2 dump
    else
        printf '%s\n' sysfs.path proc.path dump.name
    end
end

# -O NAME=VALUE: names first, then directories for *.path
function __pfnmap_pci_param
    set -l cur (commandline -ct)
    if string match -q -- '*=*' $cur
        set -l name (string split -m1 = -- $cur)[1]
        if string match -q -- '*.path' $name
            __fish_complete_directories (string split -m1 = -- $cur)[2] | string replace -r '^' "$name="
        end
    else
        __pfnmap_libpci -O | string replace -r '$' '='
    end
end

# The command (first word that is neither an option nor an option's
# argument) and the arguments after it, as `__pfnmap_args`
function __pfnmap_args
    set -l tokens (commandline -opc)
    set -l skip 0
    for w in $tokens[2..-1]
        if test $skip = 1
            set skip 0
        else if contains -- $w -c -w -o -D -m -A -O --cache --width --output --device --module --timeout --interval --tests --loops --seed --max-errors
            set skip 1
        else if string match -q -- '-*' $w
            continue
        else
            echo $w
        end
    end
end

function __pfnmap_needs_command
    test (count (__pfnmap_args)) -eq 0
end

# __pfnmap_arg N CMD...: the cursor is at argument N (1 = the first) of
# one of the commands CMD
function __pfnmap_arg
    set -l args (__pfnmap_args)
    test (count $args) -eq $argv[1]; and contains -- $args[1] $argv[2..-1]
end

complete -c pfnmap -f

complete -c pfnmap -n __pfnmap_needs_command -a dump -d 'raw bytes to stdout (or -o FILE)'
complete -c pfnmap -n __pfnmap_needs_command -a hexdump -d 'hex and ASCII like hexdump -C'
complete -c pfnmap -n __pfnmap_needs_command -a fill -d 'repeat VALUE (of --width) over REGION'
complete -c pfnmap -n __pfnmap_needs_command -a load -d 'copy FILE or stdin into REGION'
complete -c pfnmap -n __pfnmap_needs_command -a read -d 'one value of --width'
complete -c pfnmap -n __pfnmap_needs_command -a write -d 'store one value of --width; VALUE:MASK: read-modify-write'
complete -c pfnmap -n __pfnmap_needs_command -a set -d 'set BITS: one read, one write'
complete -c pfnmap -n __pfnmap_needs_command -a clear -d 'clear BITS: one read, one write'
complete -c pfnmap -n __pfnmap_needs_command -a expect -d 'read one value; exit 5 unless it matches'
complete -c pfnmap -n __pfnmap_needs_command -a cmp -d 'compare regions or a region and a file; exit 5 if they differ'
complete -c pfnmap -n __pfnmap_needs_command -a sum -d 'crc32 or sha256 of each region'
complete -c pfnmap -n __pfnmap_needs_command -a copy -d 'copy a region, overlaps as memmove'
complete -c pfnmap -n __pfnmap_needs_command -a info -d 'PFNs, pages, owner, RAM, cache type'
complete -c pfnmap -n __pfnmap_needs_command -a bars -d 'PCI devices and their BARs'
complete -c pfnmap -n __pfnmap_needs_command -a poll -d 'read until (value & MASK) == VALUE; exit 5 after --timeout'
complete -c pfnmap -n __pfnmap_needs_command -a memtest -d 'test the memory of REGION; exit 5 when a test fails'
complete -c pfnmap -n __pfnmap_needs_command -a batch -d 'one command line a line of FILE or stdin'

complete -c pfnmap -n '__pfnmap_arg 1 dump hexdump info fill load read write set clear expect cmp sum copy poll memtest' -a '(__pfnmap_bars)'
complete -c pfnmap -n '__pfnmap_arg 2 load' -F
complete -c pfnmap -n '__pfnmap_arg 1 batch' -F
complete -c pfnmap -n '__pfnmap_arg 1 bars' -a '(__pfnmap_devices)'

complete -c pfnmap -s c -l cache -x -a 'auto\t"as /dev/mem; BARs by prefetch" uc\tuncached wc\twrite-combining wb\twrite-back' -d 'Cache type'
complete -c pfnmap -s f -l force -d 'Write binary to a terminal; write into BARs of a device with a driver'
complete -c pfnmap -s n -l dry-run -d 'Check everything, say what would be done, map nothing'
complete -c pfnmap -s w -l width -x -a '8 16 32 64' -d 'Access width in bits'
complete -c pfnmap -s o -l output -r -F -d 'dump and hexdump write to FILE'
complete -c pfnmap -s D -l device -r -F -d 'Map through PATH, whose offsets are physical addresses'
complete -c pfnmap -s m -l module -r -k -a '(__fish_complete_suffix .ko)' -d 'Load the helper from this pfnmap.ko'
complete -c pfnmap -l no-load -d 'Never load the helper module'
complete -c pfnmap -l max-diffs -r -d 'cmp: list at most N differences'
complete -c pfnmap -l algo -x -a 'crc32 sha256' -d 'sum: the algorithm'
complete -c pfnmap -l expect -x -d 'sum: exit 5 unless every sum is HEX'
complete -c pfnmap -s A -x -a '(__pfnmap_libpci -A)' -d 'libpci access method, as lspci -A'
complete -c pfnmap -s M -l machine -d 'bars: one line per BAR, for scripts'
complete -c pfnmap -s O -x -a '(__pfnmap_pci_param)' -d 'libpci parameter NAME=VALUE, as lspci -O'
complete -c pfnmap -l sysfs -d 'Map BARs through sysfs resourceN files'
complete -c pfnmap -s q -l quiet -d 'No warnings, only errors'
complete -c pfnmap -l progress -d 'Show the progress line even when stderr is no terminal, or with -q'
complete -c pfnmap -l no-progress -d 'No progress line, even on a terminal'
complete -c pfnmap -s v -l verbose -d 'Say what is mapped: PFNs, pages, cache types'
complete -c pfnmap -l json -d 'One JSON object a result line (read, expect, poll, cmp, sum, info, bars)'
complete -c pfnmap -l keep-going -d 'batch: run on after a failing line'
complete -c pfnmap -l tests -x -a 'all default data-bus address-bus stuck-address random xor sub mul div or and seqinc solid-bits block-seq checkerboard bit-spread bit-flip walking-ones walking-zeros 8bit-writes 16bit-writes moving-inversions' -d 'memtest: the tests to run, comma-separated'
complete -c pfnmap -l loops -x -d 'memtest: run the tests N times'
complete -c pfnmap -l seed -x -d 'memtest: seed of the random values'
complete -c pfnmap -l max-errors -x -d 'memtest: stop after N failures (0: never)'
complete -c pfnmap -s '?' -l help -d 'Give the help list'
complete -c pfnmap -l usage -d 'Give a short usage message'
complete -c pfnmap -s V -l version -d 'Print the program version'
complete -c pfnmap -l timeout -x -a '1ms 10ms 100ms 1s 10s forever' -d 'poll: give up after DURATION (ns, us, ms, s; forever)'
complete -c pfnmap -l interval -x -a '1ms 10ms 100ms 1s' -d 'poll: sleep DURATION between reads'
complete -c pfnmap -l not -d 'poll: until (value & MASK) differs from VALUE'
