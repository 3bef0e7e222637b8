// See output_file.h.
#include "core/output_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"

namespace cloth {

void writeOutputFile(const std::string& path, std::string_view data) {
    const auto fail = [&](const std::string& reason) {
        return Error(path + ": cannot write file: " + reason);
    };
    // O_NONBLOCK: opening a FIFO without a reader fails (ENXIO) instead of waiting forever.
    const int fd =
        ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC, 0644);
    if (fd < 0 && errno == ENXIO) throw fail("it is a FIFO that no process is reading");
    if (fd < 0) throw fail(std::strerror(errno));
    // Blocking writes from here on: a FIFO's reader may be slower than we are.
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const std::string reason = n < 0 ? std::strerror(errno) : "nothing written";
            ::close(fd);
            throw fail(reason);
        }
        done += std::size_t(n);
    }
    if (::close(fd) != 0) throw fail(std::strerror(errno));
}

}  // namespace cloth
