// SPDX-License-Identifier: GPL-2.0
#include "bst_sleep.h"
