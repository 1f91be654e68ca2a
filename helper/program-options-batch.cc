/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// ProgramOptions: sets of options run in forked children of one process, so that ns-3's
// start-up is paid once: --checkBatch (a sweep's values checked in one call) and --serve (a
// campaign worker's points run by one server per program). A child is the process as it is
// before Parse() reads its options, which is why both live here, beside Parse's entry.

#include "program-options.h"

#include "ns3/rng-stream.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <iostream>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>
#ifdef __linux__
#    include <sys/prctl.h>
#endif

namespace ns3
{

void
ProgramOptions::CheckBatch(std::vector<std::string>& args)
{
    // A fork per set: a check has global effects (attribute defaults, registered profiles) and
    // ends with exit(), so each set gets a fresh copy of the process as it is before Parse();
    // that is about a millisecond where a new process (ns-3's libraries loaded) takes 100 times
    // more.
    std::string line;
    bool allPassed = true;
    while (std::getline(std::cin, line))
    {
        int fds[2];
        Require(pipe(fds) == 0, "--checkBatch: no pipe");
        std::cout.flush();
        std::cerr.flush();
        std::fflush(nullptr);
        const pid_t pid = fork();
        Require(pid >= 0, "--checkBatch: fork failed");
        if (pid == 0)
        {
            // The child's exit() would set the shared offset of a seekable standard input back
            // to the end of the line it read (POSIX exit() on a read stream): the parent would
            // read the remaining sets again, forever. The child reads nothing from it.
            const int devNull = open("/dev/null", O_RDONLY);
            Require(devNull >= 0, "--checkBatch: cannot open /dev/null");
            dup2(devNull, STDIN_FILENO);
            close(devNull);
            close(fds[0]);
            dup2(fds[1], STDOUT_FILENO);
            dup2(fds[1], STDERR_FILENO);
            close(fds[1]);
            args = {m_program};
            std::istringstream is(line);
            for (std::string arg; std::getline(is, arg, '\t');)
            {
                args.push_back(arg);
            }
            args.emplace_back("--check");
            m_batchChild = true;
            return;
        }
        close(fds[1]);
        std::string text;
        char buf[4096];
        for (ssize_t n; (n = read(fds[0], buf, sizeof(buf))) != 0;)
        {
            if (n < 0)
            {
                if (errno == EINTR)
                {
                    continue;
                }
                break;
            }
            text.append(buf, n);
        }
        close(fds[0]);
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        {
        }
        const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        std::string last;
        std::istringstream lines(text);
        for (std::string l; std::getline(lines, l);)
        {
            if (!l.empty())
            {
                last = l;
            }
        }
        if (code == 0)
        {
            std::cout << "0\n";
        }
        else
        {
            allPassed = false;
            std::cout << code << " " << (last.empty() ? "no message" : last) << "\n";
        }
        std::cout.flush();
    }
    std::exit(allPassed ? 0 : EXIT_BAD_ARGUMENTS);
}

void
ProgramOptions::Serve(std::vector<std::string>& args)
{
    // The jump-ahead matrices every RngStream's construction needs (a function-local static of
    // ns-3's rng-stream.cc, a quarter of a run's start-up): computed here once, copied into
    // every child. Constructing an RngStream draws no number and takes no stream index.
    {
        RngStream warm(1, 0, 0);
    }
    const pid_t server = getpid();
    std::string line;
    while (std::getline(std::cin, line))
    {
        std::vector<std::string> fields;
        std::istringstream is(line);
        for (std::string f; std::getline(is, f, '\t');)
        {
            fields.push_back(f);
        }
        Require(!fields.empty() && !fields[0].empty(),
                "--serve: a request starts with the file for the run's output");
        std::cout.flush();
        std::cerr.flush();
        std::fflush(nullptr);
        const pid_t pid = fork();
        Require(pid >= 0, "--serve: fork failed");
        if (pid == 0)
        {
#ifdef __linux__
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != server)
            {
                raise(SIGKILL); // the server died before the signal was armed
            }
#endif
            // Nothing to read (and the child's exit must not move a shared input's offset; see
            // CheckBatch); its output and errors go to the request's file.
            const int devNull = open("/dev/null", O_RDONLY);
            const int log = open(fields[0].c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (devNull < 0 || log < 0)
            {
                _exit(EXIT_BAD_ARGUMENTS);
            }
            dup2(devNull, STDIN_FILENO);
            dup2(log, STDOUT_FILENO);
            dup2(log, STDERR_FILENO);
            close(devNull);
            close(log);
            args = {m_program};
            args.insert(args.end(), fields.begin() + 1, fields.end());
            m_served = true;
            return;
        }
        std::cout << pid << std::endl;
        int status = 0;

        struct rusage usage
        {
        };

        while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR)
        {
        }
        const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
        const auto seconds = [](const timeval& t) {
            return RealText(static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6);
        };
        std::cout << code << " " << seconds(usage.ru_utime) << " " << seconds(usage.ru_stime)
                  << std::endl;
    }
    std::exit(0);
}

} // namespace ns3
