# SPDX-License-Identifier: GPL-2.0-or-later
#
# fish completion for pfnmap(8): commands, options, --width and --cache
# values, libpci methods and parameters, files for load, -o, -D and -m,
# and where a region or an address is expected the memory BARs of the
# running system as SLOT/barN (0000:00:04.0/bar2 and 00:04.0/bar2), read
# from $PFNMAP_SYSFS/bus/pci/devices (PFNMAP_SYSFS defaults to /sys), or
# DIR/devices when the command line has -O sysfs.path=DIR. A BAR is offered
# when its line in the device's resource file is memory (flags & 0x200)
# with an address (start or end non-zero, not IORESOURCE_UNSET 0x20000000).

# The directory libpci would read: -O sysfs.path=DIR, else the sysfs root
function __pfnmap_pci_dir
    set -l tokens (commandline -opc)
    set -l n (count $tokens)
    for i in (seq 2 $n)
        set -l w $tokens[$i]
        if test "$w" = -O; and test $i -lt $n
            set w $tokens[(math $i + 1)]
        else if string match -q -- '-O?*' $w
            set w (string sub -s 3 -- $w)
        else
            continue
        end
        if string match -q -- 'sysfs.path=?*' $w
            string replace -- sysfs.path= '' $w
            return
        end
    end
    set -l root /sys
    set -q PFNMAP_SYSFS; and set root $PFNMAP_SYSFS
    echo $root/bus/pci
end

# SLOT/barN of every memory BAR that has an address, long and short form
function __pfnmap_bars
    set -l dir (__pfnmap_pci_dir)
    for d in $dir/devices/*
        test -r $d/resource; or continue
        set -l slot (string replace -r '.*/' '' -- $d)
        set -l i 0
        while test $i -lt 6; and read -l start end flags
            set -l hex (string match -r '^0x[0-9a-fA-F]+$' -- $start $end $flags)
            set -l zero (string match -r '^0x0+$' -- $start $end)
            if test (count $hex) -eq 3
                and test (math "bitand($flags, 0x200)") -ne 0
                and test (math "bitand($flags, 0x20000000)") -eq 0
                and test (count $zero) -lt 2
                printf '%s/bar%d\tPCI BAR\n' $slot $i
                string match -q '0000:*' -- $slot
                and printf '%s/bar%d\tPCI BAR\n' (string sub -s 6 -- $slot) $i
            end
            set i (math $i + 1)
        end <$d/resource
    end
end

# Filters for `bars`: slots, long and short, and VENDOR:DEVICE
function __pfnmap_devices
    set -l dir (__pfnmap_pci_dir)
    for d in $dir/devices/*
        set -l slot (string replace -r '.*/' '' -- $d)
        printf '%s\tPCI slot\n' $slot
        string match -q '0000:*' -- $slot
        and printf '%s\tPCI slot\n' (string sub -s 6 -- $slot)
        if test -r $d/vendor; and test -r $d/device
            printf '%s:%s\tVENDOR:DEVICE\n' (string replace 0x '' <$d/vendor) (string replace 0x '' <$d/device)
        end
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
        else if contains -- $w -c -w -o -D -m -A -O --cache --width --output --device --module
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
complete -c pfnmap -n __pfnmap_needs_command -a write -d 'store one value of --width'
complete -c pfnmap -n __pfnmap_needs_command -a info -d 'PFNs, pages, owner, RAM, cache type'
complete -c pfnmap -n __pfnmap_needs_command -a bars -d 'PCI devices and their BARs'

complete -c pfnmap -n '__pfnmap_arg 1 dump hexdump info fill load read write' -a '(__pfnmap_bars)'
complete -c pfnmap -n '__pfnmap_arg 2 load' -F
complete -c pfnmap -n '__pfnmap_arg 1 bars' -a '(__pfnmap_devices)'

complete -c pfnmap -s c -l cache -x -a 'auto\t"as /dev/mem; BARs by prefetch" uc\tuncached wc\twrite-combining wb\twrite-back' -d 'Cache type'
complete -c pfnmap -s f -l force -d 'Write binary to a terminal; write into BARs of a device with a driver'
complete -c pfnmap -s n -l dry-run -d 'Check everything, say what would be done, map nothing'
complete -c pfnmap -s w -l width -x -a '8 16 32 64' -d 'Access width in bits'
complete -c pfnmap -s o -l output -r -F -d 'dump and hexdump write to FILE'
complete -c pfnmap -s D -l device -r -F -d 'Map through PATH, whose offsets are physical addresses'
complete -c pfnmap -s m -l module -r -k -a '(__fish_complete_suffix .ko)' -d 'Load the helper from this pfnmap.ko'
complete -c pfnmap -l no-load -d 'Never load the helper module'
complete -c pfnmap -s A -x -a '(__pfnmap_libpci -A)' -d 'libpci access method, as lspci -A'
complete -c pfnmap -s M -l machine -d 'bars: one line per BAR, for scripts'
complete -c pfnmap -s O -x -a '(__pfnmap_pci_param)' -d 'libpci parameter NAME=VALUE, as lspci -O'
complete -c pfnmap -l sysfs -d 'Map BARs through sysfs resourceN files'
complete -c pfnmap -s q -l quiet -d 'No warnings, only errors'
complete -c pfnmap -s v -l verbose -d 'Say what is mapped: PFNs, pages, cache types'
complete -c pfnmap -s '?' -l help -d 'Give the help list'
complete -c pfnmap -l usage -d 'Give a short usage message'
complete -c pfnmap -s V -l version -d 'Print the program version'
