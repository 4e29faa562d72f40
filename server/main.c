#include <stdio.h>

#include "arcaded_version.h"

int
main(void)
{
	printf("arcaded %s\n", ARCADED_VERSION);
	return 0;
}
