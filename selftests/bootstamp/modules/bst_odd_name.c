// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module for bootstamp's probe_names_ascii: a platform device and
 * driver whose name holds a byte that is not ASCII (0xe9, Latin-1 e-acute,
 * which the kernel's isgraph() accepts, and not valid UTF-8 alone), probed
 * at load, so that the probes file and trace.json get such a name.
 */
#include <linux/module.h>
#include <linux/platform_device.h>

#define BST_ODD_NAME	"bst-caf\xe9"

static struct platform_device *bst_odd_dev;

static int bst_odd_probe(struct platform_device *pdev)
{
	return 0;
}

static struct platform_driver bst_odd_driver = {
	.probe	= bst_odd_probe,
	.driver	= {
		.name	= BST_ODD_NAME,
	},
};

static int __init bst_odd_init(void)
{
	int ret = platform_driver_register(&bst_odd_driver);

	if (ret)
		return ret;
	bst_odd_dev = platform_device_register_simple(BST_ODD_NAME, PLATFORM_DEVID_NONE,
						      NULL, 0);
	if (IS_ERR(bst_odd_dev)) {
		platform_driver_unregister(&bst_odd_driver);
		return PTR_ERR(bst_odd_dev);
	}
	return 0;
}
module_init(bst_odd_init);

static void __exit bst_odd_exit(void)
{
	platform_device_unregister(bst_odd_dev);
	platform_driver_unregister(&bst_odd_driver);
}
module_exit(bst_odd_exit);

MODULE_DESCRIPTION("bootstamp test: a device whose name is not ASCII");
MODULE_LICENSE("GPL");
