// See input_file.h.
#include "core/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/error.h"

namespace cloth {

namespace {

const char* fileType(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a plain file";
}

std::string sizeText(std::uint64_t bytes) {
    if (bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MiB";
    return std::to_string(bytes) + " bytes";
}

// Closes the descriptor on every path out.
struct Fd {
    int fd;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

}  // namespace

std::string readInputFile(const std::string& path, std::uint64_t maxBytes, const char* kind) {
    // O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever; the type check
    // below refuses it before any read.
    Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
    if (f.fd < 0) throw Error(path + ": cannot open file: " + std::strerror(errno));
    struct stat st {};
    if (::fstat(f.fd, &st) != 0) throw Error(path + ": cannot read file: " + std::strerror(errno));
    if (!S_ISREG(st.st_mode))
        throw Error(path + ": cannot read file: it is " + fileType(st.st_mode) +
                    ", not a regular file");
    const auto tooLarge = [&](std::uint64_t bytes, const char* qualifier) {
        return Error(path + ": file too large (" + qualifier + std::to_string(bytes) +
                     " bytes; the limit for " + kind + " files is " + sizeText(maxBytes) + ")");
    };
    if (std::uint64_t(st.st_size) > maxBytes) throw tooLarge(std::uint64_t(st.st_size), "");
    std::string text(std::size_t(st.st_size), '\0');
    std::size_t got = 0;
    for (;;) {  // to the end, even if the file grew since fstat, but never past the cap
        if (got == text.size()) {
            if (got > maxBytes) throw tooLarge(maxBytes, "over ");
            text.resize(std::min<std::uint64_t>(maxBytes + 1, got + 65536));
        }
        const ssize_t n = ::read(f.fd, text.data() + got, text.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw Error(path + ": cannot read file: " + std::strerror(errno));
        if (n == 0) break;
        got += std::size_t(n);
    }
    text.resize(got);
    return text;
}

}  // namespace cloth
