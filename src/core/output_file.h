// Writing a file the user names (stats JSON, exported OBJ, scene, tuning file, PNG): every
// error is reported, with the file and the reason, and nothing blocks. A FIFO that no process
// reads is refused at once (it used to block forever); a full device (/dev/full) or a
// directory is an error, not a silent success. Devices and FIFOs with a reader are written
// to (--stats /dev/stdout works).
#pragma once

#include <string>
#include <string_view>

namespace cloth {

// Creates or truncates `path` and writes `data`. Throws cloth::Error
// "<path>: cannot write file: <reason>".
void writeOutputFile(const std::string& path, std::string_view data);

}  // namespace cloth
