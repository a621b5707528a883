package atomicfile

var crossDeviceErrno = errorNotSameDevice
