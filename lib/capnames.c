// SPDX-License-Identifier: GPL-2.0-or-later
/* The capability names of configuration space, as setpci spells them */
#include <string.h>
#include <strings.h>

#include "capnames.h"
#include "util.h"

/*
 * setpci's names (setpci --dumpregs), with libpci's IDs (header.h:
 * PCI_CAP_ID_*, PCI_EXT_CAP_ID_*)
 */
static const struct {
	const char *name;
	unsigned int id;
} cap_names[] = {
	{ "CAP_PM", 0x01 }, { "CAP_AGP", 0x02 }, { "CAP_VPD", 0x03 },
	{ "CAP_SLOTID", 0x04 }, { "CAP_MSI", 0x05 }, { "CAP_CHSWP", 0x06 },
	{ "CAP_PCIX", 0x07 }, { "CAP_HT", 0x08 }, { "CAP_VNDR", 0x09 },
	{ "CAP_DBG", 0x0a }, { "CAP_CCRC", 0x0b }, { "CAP_HOTPLUG", 0x0c },
	{ "CAP_SSVID", 0x0d }, { "CAP_AGP3", 0x0e }, { "CAP_SECURE", 0x0f },
	{ "CAP_EXP", 0x10 }, { "CAP_MSIX", 0x11 }, { "CAP_SATA", 0x12 },
	{ "CAP_AF", 0x13 }, { "CAP_EA", 0x14 },
}, ecap_names[] = {
	{ "ECAP_AER", 0x01 }, { "ECAP_VC", 0x02 }, { "ECAP_DSN", 0x03 },
	{ "ECAP_PB", 0x04 }, { "ECAP_RCLINK", 0x05 },
	{ "ECAP_RCILINK", 0x06 }, { "ECAP_RCEC", 0x07 },
	{ "ECAP_MFVC", 0x08 }, { "ECAP_VC2", 0x09 }, { "ECAP_RBCB", 0x0a },
	{ "ECAP_VNDR", 0x0b }, { "ECAP_ACS", 0x0d }, { "ECAP_ARI", 0x0e },
	{ "ECAP_ATS", 0x0f }, { "ECAP_SRIOV", 0x10 },
	{ "ECAP_MRIOV", 0x11 }, { "ECAP_MCAST", 0x12 }, { "ECAP_PRI", 0x13 },
	{ "ECAP_REBAR", 0x15 }, { "ECAP_DPA", 0x16 }, { "ECAP_TPH", 0x17 },
	{ "ECAP_LTR", 0x18 }, { "ECAP_SECPCI", 0x19 }, { "ECAP_PMUX", 0x1a },
	{ "ECAP_PASID", 0x1b }, { "ECAP_LNR", 0x1c }, { "ECAP_DPC", 0x1d },
	{ "ECAP_L1PM", 0x1e }, { "ECAP_PTM", 0x1f },
	{ "ECAP_M_PCIE", 0x20 }, { "ECAP_FRS", 0x21 }, { "ECAP_RTR", 0x22 },
	{ "ECAP_DVSEC", 0x23 }, { "ECAP_VF_REBAR", 0x24 },
	{ "ECAP_DLNK", 0x25 }, { "ECAP_16GT", 0x26 }, { "ECAP_LMR", 0x27 },
	{ "ECAP_HIER_ID", 0x28 }, { "ECAP_NPEM", 0x29 },
	{ "ECAP_32GT", 0x2a }, { "ECAP_IDE", 0x30 }, { "ECAP_64GT", 0x31 },
};

bool config_cap_lookup(const char *name, size_t len, bool *extended,
		       unsigned int *id)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cap_names); i++) {
		if (strlen(cap_names[i].name) == len &&
		    !strncasecmp(cap_names[i].name, name, len)) {
			*extended = false;
			*id = cap_names[i].id;
			return true;
		}
	}
	for (i = 0; i < ARRAY_SIZE(ecap_names); i++) {
		if (strlen(ecap_names[i].name) == len &&
		    !strncasecmp(ecap_names[i].name, name, len)) {
			*extended = true;
			*id = ecap_names[i].id;
			return true;
		}
	}
	return false;
}
