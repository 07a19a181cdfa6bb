/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PROGRAM_FRAME_H
#define PROGRAM_FRAME_H

#include "ns3/attribute.h"
#include "ns3/command-line.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"
#include "ns3/type-id.h"
#include "ns3/value-text.h"

#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-experiments
 * \brief The command line of one of dcon's programs: every option read whole and strictly,
 * every "--ns3::Type::Attribute=value" either applied (after the program's own presets) or
 * refused with a message naming it, the run's record (run.json) and its output folder.
 *
 * ns-3's CommandLine reads a std::string option up to its first space, drops positional
 * words, aborts the process on a Time, DataRate or number it cannot read, wraps sizes, and
 * applies an attribute argument as a default that a program's later preset or factory setting
 * overwrites without a word. A ProgramFrame reads the arguments itself before ns-3 sees them:
 *
 * - options are declared with a typed reader (AddTime, AddDataRate, AddQueueSize, AddDouble,
 *   AddUnsigned, AddFlag, AddString, AddChoice, AddOption) that reads the whole value, checks
 *   its range and throws std::invalid_argument "--name: got 'value', expected ..." (invisible
 *   characters escaped, QuoteText);
 * - a word that is not an option, an unknown option or an option given twice is refused;
 * - an attribute argument is checked before anything is set (the type and attribute exist, the
 *   text is read strictly, the value is in the attribute's range: ReadValueText) and then set
 *   with Config::SetDefault; an attribute the program sets itself from one of its options or
 *   on its factories (SetOwned) is refused naming the option to use; SetDefault (a program's
 *   default that yields to the user's value) lets the user's values win; every attribute the
 *   user gave is recorded (SetUserAttributePaths) so that a factory or object setting of it is
 *   refused (RefuseOverwritingUserAttribute) and a congestion control's parameter set leaves it
 *   alone (RdmaFabricHelper::SetCongestionControl);
 * - ns-3's global values (--RngSeed, --RngRun, --SchedulerType, --SimulatorImplementationType,
 *   --ChecksumEnabled) are checked the same way (an unknown engine or scheduler is refused, and
 *   a parallel engine unless the program runs on MPI ranks) and then handed to ns-3;
 * - CheckUse refuses options and attributes that the run does not use (an option of the RED
 *   queue with --cc=dcon, an attribute of HPCC with --cc=dcqcn), naming the algorithms that use
 *   them;
 * - PrepareOutputFolder and WriteRunJson make the output folder and the run's record.
 *
 * The help (--help, --PrintAttributes=..., ...) is ns-3's. Errors are std::invalid_argument;
 * the program's main prints them as "error: ..." (ParallelRun::Fail).
 */
class ProgramFrame
{
public:
    /**
     * \brief A frame for a program.
     * \param program the program's name (messages, run.json), e.g. "dcon-testbed"
     * \param file the program's source file (__FILE__, for ns-3's help)
     */
    ProgramFrame(const std::string& program, const std::string& file);

    /**
     * \brief Add a boolean option: --name, --name=true/false/1/0/t/f.
     * \param name the option name (without "--")
     * \param help its help text
     * \param value the variable (its value is the default shown; must outlive Parse)
     */
    void AddFlag(const std::string& name, const std::string& help, bool& value);

    /**
     * \brief Add a text option, read whole (spaces included); an empty value is allowed only if
     * \p allowEmpty.
     * \param name the option name
     * \param help its help text
     * \param value the variable
     * \param allowEmpty whether "--name=" is accepted
     */
    void AddString(const std::string& name,
                   const std::string& help,
                   std::string& value,
                   bool allowEmpty = false);

    /**
     * \brief Add a text option with a fixed set of values.
     * \param name the option name
     * \param help its help text
     * \param value the variable
     * \param choices the accepted values
     */
    void AddChoice(const std::string& name,
                   const std::string& help,
                   std::string& value,
                   const std::vector<std::string>& choices);

    /**
     * \brief Add an unsigned integer option: decimal digits only, in [\p minValue, \p maxValue].
     * \tparam T an unsigned integer type
     * \param name the option name
     * \param help its help text
     * \param value the variable
     * \param minValue the smallest accepted value
     * \param maxValue the largest accepted value
     */
    template <typename T>
    void AddUnsigned(const std::string& name,
                     const std::string& help,
                     T& value,
                     T minValue = 0,
                     T maxValue = std::numeric_limits<T>::max());

    /**
     * \brief Add a decimal option: a finite decimal number (ReadDecimalNumber) in
     * [\p minValue, \p maxValue], or (\p minValue, ...] with \p minOpen.
     * \param name the option name
     * \param help its help text
     * \param value the variable
     * \param minValue the smallest accepted value
     * \param maxValue the largest accepted value
     * \param minOpen whether \p minValue itself is refused
     */
    void AddDouble(const std::string& name,
                   const std::string& help,
                   double& value,
                   double minValue,
                   double maxValue,
                   bool minOpen = false);

    /**
     * \brief Add a time option (ReadTimeText) in [\p minValue, \p maxValue].
     * \param name the option name
     * \param help its help text
     * \param value the variable
     * \param minValue the smallest accepted time
     * \param maxValue the largest accepted time (default: GetMaxRunTime())
     * \param minOpen whether \p minValue itself is refused
     */
    void AddTime(const std::string& name,
                 const std::string& help,
                 Time& value,
                 Time minValue,
                 Time maxValue = GetMaxRunTime(),
                 bool minOpen = false);

    /**
     * \brief Add a data-rate option (ReadDataRateText), at least \p minValue.
     * \param name the option name
     * \param help its help text
     * \param value the variable
     * \param minValue the smallest accepted rate
     */
    void AddDataRate(const std::string& name,
                     const std::string& help,
                     DataRate& value,
                     DataRate minValue = DataRate(0));

    /**
     * \brief Add a queue-size option in bytes (ReadQueueSizeText; packets are refused), at least
     * \p minBytes.
     * \param name the option name
     * \param help its help text
     * \param value the variable
     * \param minBytes the smallest accepted size
     */
    void AddQueueSize(const std::string& name,
                      const std::string& help,
                      QueueSize& value,
                      uint32_t minBytes = 0);

    /**
     * \brief Add an option with a reader of its own, which gets the whole value and throws
     * std::invalid_argument naming the option and the value if it refuses it.
     * \param name the option name
     * \param help its help text
     * \param read the reader
     * \param defaultText the default shown in the help
     */
    void AddOption(const std::string& name,
                   const std::string& help,
                   std::function<void(const std::string&)> read,
                   const std::string& defaultText);

    /**
     * \brief Add --cc (a congestion control: a short name of RdmaCcRegistry or the TypeId name of
     * an RdmaCongestionOps subclass) and --list-cc (print the algorithms, one a line, and exit).
     * \param cc the variable
     * \param moreHelp text appended to --cc's help
     */
    void AddCcOptions(std::string& cc, const std::string& moreHelp = "");

    /**
     * \brief Declare the types an option sets: CheckUse refuses the option, when given, if the
     * run creates none of them.
     * \param option the option name
     * \param typeNames TypeId names, e.g. {"ns3::RedEcnQueueDisc"}
     */
    void SetOptionTypes(const std::string& option, const std::vector<std::string>& typeNames);

    /**
     * \brief Declare an attribute that the program sets itself (on its factories or objects,
     * from one of its options or a fixed setting): an argument naming it is refused.
     * \param path the attribute, e.g. "ns3::SwitchMmu::XOff"
     * \param how what sets it instead, e.g. "use --xoff"
     */
    void SetOwned(const std::string& path, const std::string& how);

    /**
     * \brief Declare a global value that the program sets itself (e.g. RngRun from --seed).
     * \param name the global value's name
     * \param how what sets it instead
     */
    void SetOwnedGlobal(const std::string& name, const std::string& how);

    /**
     * \brief Whether the program runs on MPI ranks (ParallelRun::Start): only then a parallel
     * engine may be named by --SimulatorImplementationType.
     * \param parallel true for dcon-testbed, dcon-large-scale, dcon-bench
     */
    void SetParallel(bool parallel);

    /**
     * \brief Read the command line: every option, attribute and global value is checked, the
     * attribute defaults are set (Config::SetDefault) and recorded, the global values handed to
     * ns-3. --help and ns-3's other Print options print and exit as usual.
     * \throws std::invalid_argument naming the first argument refused
     * \param argc main's argc (after ParallelRun::Init)
     * \param argv main's argv
     */
    void Parse(int argc, char* argv[]);

    /**
     * \brief Whether the program has an option.
     * \param option the option name
     * \return true if added
     */
    bool HasOption(const std::string& option) const;

    /**
     * \brief Whether an option was given.
     * \param option the option name
     * \return true if given
     */
    bool IsGiven(const std::string& option) const;

    /**
     * \brief The options given, by name (SwitchQueueSettings::explicitOptions).
     * \return the names
     */
    std::set<std::string> GetGivenOptions() const;

    /**
     * \brief The attribute arguments given, in their order ("ns3::Type::Attribute=value").
     * \return the arguments
     */
    const std::vector<std::string>& GetAttributeArguments() const;

    /**
     * \brief Whether the user gave an attribute.
     * \param path "ns3::Type::Attribute"
     * \return true if given
     */
    bool IsAttributeGiven(const std::string& path) const;

    /**
     * \brief A preset of the program: Config::SetDefault(path, value) unless the user gave the
     * attribute (the user's value stays). With \p option, the preset comes from that option:
     * giving both the option and the attribute is refused.
     * \throws std::invalid_argument if the attribute is unknown or \p value invalid for it, or
     * both the option and the attribute were given
     * \param path "ns3::Type::Attribute"
     * \param value the preset's value
     * \param option the option the value comes from ("" if none)
     */
    void SetDefault(const std::string& path,
                    const AttributeValue& value,
                    const std::string& option = "");

    /**
     * \brief Refuse options that do not apply in this run.
     * \throws std::invalid_argument naming the first of \p options given, and \p why
     * \param options option names
     * \param why why they do not apply, e.g. "--flowFile replays the file's flows"
     */
    void RefuseGiven(const std::vector<std::string>& options, const std::string& why) const;

    /**
     * \brief Refuse the options (SetOptionTypes) and attribute arguments the run does not use:
     * those whose types are not among (ancestors of) \p created.
     * \throws std::invalid_argument naming the option or attribute, the algorithms that use it
     * (from RdmaCcRegistry) and what this run runs
     * \param created the types the run creates (e.g. RdmaFabricHelper::GetCreatedTypes)
     * \param run what the run runs, for the message, e.g. "--cc=dcon with ns3::DconQueueDisc"
     */
    void CheckUse(const std::vector<TypeId>& created, const std::string& run) const;

    /**
     * \brief Make the output folder ready before the run: create it, check that it is a folder
     * and writable, and remove the files of an earlier run that this program writes (\p kinds,
     * e.g. "flows.csv", "node-work-*.csv", "*.pcap"; "*.part" files of an interrupted write
     * too), printing which (to std::cout). Files of other kinds are left, and listed.
     * \throws std::invalid_argument naming the folder if it is not a folder or not writable
     * \param dir the folder
     * \param kinds the names and patterns (one '*' each) of the files the program writes there
     */
    void PrepareOutputFolder(const std::string& dir, const std::vector<std::string>& kinds) const;

    /**
     * \brief The record of the run as JSON members (no braces): "program", "command_line" (every
     * argument), "ns3_version", "rng_seed" and "rng_run" as applied (RngSeedManager, read when
     * called: call it after the program set them), "options" (the options given, as read) and
     * "attributes" (the attribute arguments).
     * \return the members, each on a line of its own, indented by two spaces
     */
    std::string GetRunJsonMembers() const;

    /**
     * \brief Write DIR/run.json: GetRunJsonMembers() and \p extraMembers (JSON members, ""
     * for none), atomically (AtomicOutputFile).
     * \param dir the folder
     * \param extraMembers more members, e.g. "\"cc\": \"dcqcn\""
     */
    void WriteRunJson(const std::string& dir, const std::string& extraMembers) const;

    /**
     * \brief The command line this frame read, words separated by spaces.
     * \return the command line
     */
    const std::vector<std::string>& GetArguments() const;

    /**
     * \brief The program's name.
     * \return the name
     */
    const std::string& GetProgram() const;

    /**
     * \brief Report the error that ends a program: print "error: ..." (ParallelRun::Fail: in a
     * parallel run every rank stops); an allocation failure is named as such.
     * \param e the error
     * \return the exit status (2)
     */
    static int Fail(const std::exception& e);

    /**
     * \brief The latest time a run may stop at: half of ns-3's time range at the current
     * resolution (about 53 days at 1 ps), so that the timers of the last events stay
     * representable.
     * \return the time
     */
    static Time GetMaxRunTime();

    /**
     * \brief The ns-3 version dcon was built against, e.g. "3.37".
     * \return the version
     */
    static std::string GetNs3Version();

    /**
     * \brief How this copy of dcon was built: run.json's "build" object, one line,
     * {"type": T, "ns3": N, "commit": C}. T is the build type (standalone: CMAKE_BUILD_TYPE,
     * with "+sanitize" or "+fuzz" for the instrumented builds; in an ns-3 tree: ns-3's build
     * profile, e.g. release or optimized); N is "debian" (standalone, against the ns-3 of
     * Debian's libns3-dev), "installed" (standalone, against another installed ns-3) or
     * "in-tree" (built in an ns-3 source tree, e.g. by scripts/setup-mpi.sh); C is the git
     * commit of dcon's sources at build time, with "-dirty" when the sources had uncommitted
     * changes, or "unknown" (experiments/build-info.cmake, experiments/build-info.cc).
     * \return the JSON object
     */
    static std::string GetBuildJson();

private:
    /// One option.
    struct Option
    {
        std::string help;                             //!< help text
        std::function<void(const std::string&)> read; //!< reader (throws)
        std::vector<std::string> types;               //!< types it sets (SetOptionTypes)
    };

    /// Add an option to the frame and to ns-3's command line (for --help).
    void Add(const std::string& name,
             const std::string& help,
             std::function<void(const std::string&)> read,
             const std::string& defaultText);

    /// Check and set one attribute argument (Parse).
    void SetAttributeArgument(const std::string& arg, bool check) const;

    /// Check one global value argument.
    void CheckGlobal(const std::string& name, const std::string& value) const;

    /// Whether \p type is an ancestor of (or one of) \p created.
    static bool IsUsed(TypeId type, const std::vector<TypeId>& created);

    std::string m_program;                             //!< program name
    CommandLine m_cmd;                                 //!< ns-3's command line (help, globals)
    std::map<std::string, Option> m_options;           //!< options by name
    std::map<std::string, std::string> m_owned;        //!< owned attributes -> how
    std::map<std::string, std::string> m_ownedGlobals; //!< owned global values -> how
    bool m_parallel{false};                            //!< SetParallel
    std::vector<std::string> m_arguments;              //!< the whole command line
    std::vector<std::pair<std::string, std::string>> m_given;   //!< options given (name, value)
    std::vector<std::string> m_attributeArgs;                   //!< attribute arguments
    std::vector<std::pair<std::string, std::string>> m_globals; //!< global values given
};

template <typename T>
void
ProgramFrame::AddUnsigned(
    const std::string& name, const std::string& help, T& value, T minValue, T maxValue)
{
    static_assert(std::is_unsigned_v<T>, "AddUnsigned is for unsigned integer types");
    Add(
        name,
        help,
        [&value, name, minValue, maxValue](const std::string& text)
        {
            std::optional<uint64_t> v = ReadDecimalUnsigned(text, maxValue);
            if (!v || *v < minValue)
            {
                throw std::invalid_argument("--" + name + ": got " + QuoteText(text)
                                            + ", expected an integer in ["
                                            + std::to_string(uint64_t(minValue)) + ", "
                                            + std::to_string(uint64_t(maxValue)) + "]");
            }
            value = static_cast<T>(*v);
        },
        std::to_string(value));
}

} // namespace ns3

#endif /* PROGRAM_FRAME_H */
