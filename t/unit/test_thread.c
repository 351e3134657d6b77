#include "client_fixture.h"
#include "tap.h"
int
main(void)
{
	return tap_done();
}
