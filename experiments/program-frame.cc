/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "program-frame.h"

#include "ns3/atomic-output-file.h"
#include "ns3/attribute-text.h"
#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/output-files.h"
#include "ns3/parallel-run.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rng-seed-manager.h"

#if __has_include("ns3/version-defines.h")
#include "ns3/version-defines.h"
#endif

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <new>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ProgramFrame");

namespace
{

/// ns-3's options that print something and exit (CommandLine handles them).
const char* const PRINT_OPTIONS[] = {"help",
                                     "PrintHelp",
                                     "PrintVersion",
                                     "version",
                                     "PrintGroups",
                                     "PrintGroup",
                                     "PrintTypeIds",
                                     "PrintGlobals",
                                     "PrintAttributes"};

/// The simulator engines of ParallelRun (MPI builds only).
const char* const PARALLEL_ENGINES[]
    = {"ns3::DistributedSimulatorImpl", "ns3::NullMessageSimulatorImpl"};

/// The global value named \p name, or nullptr.
GlobalValue*
FindGlobal(const std::string& name)
{
    for (auto it = GlobalValue::Begin(); it != GlobalValue::End(); ++it)
    {
        if ((*it)->GetName() == name)
        {
            return *it;
        }
    }
    return nullptr;
}

/// The --cc names of the algorithms whose own type or switch queue is (a subclass of) \p type.
std::vector<std::string>
AlgorithmsUsing(TypeId type)
{
    std::vector<std::string> names;
    for (const RdmaCcEntry& e : RdmaCcRegistry::GetAll())
    {
        TypeId cc = e.typeId();
        TypeId queue;
        bool usesQueue = TypeId::LookupByNameFailSafe(e.queueDisc, &queue)
                         && (queue == type || queue.IsChildOf(type));
        if (cc == type || cc.IsChildOf(type) || usesQueue)
        {
            names.push_back(e.name);
        }
    }
    return names;
}

/// "a, b and c" (or "a, b or c" with \p last = " or ").
std::string
JoinNames(const std::vector<std::string>& names, const std::string& last = " and ")
{
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i)
    {
        out += (i == 0 ? "" : i + 1 == names.size() ? last : ", ") + names[i];
    }
    return out;
}

} // namespace

ProgramFrame::ProgramFrame(const std::string& program, const std::string& file)
    : m_program(program)
    , m_cmd(file)
{
}

void
ProgramFrame::Add(const std::string& name,
                  const std::string& help,
                  std::function<void(const std::string&)> read,
                  const std::string& defaultText)
{
    if (m_options.count(name))
    {
        throw std::logic_error("ProgramFrame: option --" + name + " added twice");
    }
    m_options[name] = Option{help, read, {}};
    // ns-3's command line shows the option in --help; the frame reads the arguments itself.
    m_cmd.AddValue(
        name,
        help,
        [read](const std::string& text)
        {
            try
            {
                read(text);
                return true;
            }
            catch (const std::invalid_argument&)
            {
                return false;
            }
        },
        defaultText);
}

void
ProgramFrame::AddFlag(const std::string& name, const std::string& help, bool& value)
{
    Add(
        name,
        help,
        [&value, name](const std::string& text)
        {
            value = ReadBoolText(text, "--" + name);
        },
        value ? "true" : "false");
}

void
ProgramFrame::AddString(const std::string& name,
                        const std::string& help,
                        std::string& value,
                        bool allowEmpty)
{
    Add(
        name,
        help,
        [&value, name, allowEmpty](const std::string& text)
        {
            if (text.empty() && !allowEmpty)
            {
                throw std::invalid_argument("--" + name + ": got an empty value");
            }
            value = text;
        },
        value);
}

void
ProgramFrame::AddChoice(const std::string& name,
                        const std::string& help,
                        std::string& value,
                        const std::vector<std::string>& choices)
{
    Add(
        name,
        help,
        [&value, name, choices](const std::string& text)
        {
            if (std::find(choices.begin(), choices.end(), text) == choices.end())
            {
                throw std::invalid_argument("--" + name + ": got " + QuoteText(text)
                                            + ", expected one of " + JoinNames(choices, " or "));
            }
            value = text;
        },
        value);
}

void
ProgramFrame::AddDouble(const std::string& name,
                        const std::string& help,
                        double& value,
                        double minValue,
                        double maxValue,
                        bool minOpen)
{
    Add(
        name,
        help,
        [&value, name, minValue, maxValue, minOpen](const std::string& text)
        {
            std::optional<double> v = ReadDecimalNumber(text);
            const std::string range
                = (minOpen ? "(" : "[") + FormatNumber(minValue) + ", "
                  + (std::isinf(maxValue) ? "inf)" : FormatNumber(maxValue) + "]");
            if (!v)
            {
                throw std::invalid_argument("--" + name + ": got " + QuoteText(text)
                                            + ", expected a finite decimal number in " + range);
            }
            if (*v < minValue || (minOpen && *v == minValue) || *v > maxValue)
            {
                throw std::invalid_argument("--" + name + ": got " + QuoteText(text)
                                            + ", expected a number in " + range);
            }
            value = *v;
        },
        FormatNumber(value));
}

void
ProgramFrame::AddTime(const std::string& name,
                      const std::string& help,
                      Time& value,
                      Time minValue,
                      Time maxValue,
                      bool minOpen)
{
    std::ostringstream def;
    def << value.As(Time::AUTO);
    Add(
        name,
        help,
        [&value, name, minValue, maxValue, minOpen](const std::string& text)
        {
            Time t = ReadTimeText(text, "--" + name);
            if (t < minValue || (minOpen && t == minValue) || t > maxValue)
            {
                std::ostringstream oss;
                oss << "--" << name << ": got " << QuoteText(text) << ", expected a time in "
                    << (minOpen ? "(" : "[") << FormatTime(minValue) << ", " << FormatTime(maxValue)
                    << "]";
                if (t > maxValue && maxValue == GetMaxRunTime())
                {
                    oss << " (half of ns-3's time range at its resolution, so that the run's "
                           "timers stay representable)";
                }
                throw std::invalid_argument(oss.str());
            }
            value = t;
        },
        def.str());
}

void
ProgramFrame::AddDataRate(const std::string& name,
                          const std::string& help,
                          DataRate& value,
                          DataRate minValue)
{
    Add(
        name,
        help,
        [&value, name, minValue](const std::string& text)
        {
            DataRate r = ReadDataRateText(text, "--" + name);
            if (r < minValue)
            {
                throw std::invalid_argument("--" + name + ": got " + QuoteText(text)
                                            + ", expected at least "
                                            + std::to_string(minValue.GetBitRate()) + " bit/s");
            }
            value = r;
        },
        std::to_string(value.GetBitRate()) + "bps");
}

void
ProgramFrame::AddQueueSize(const std::string& name,
                           const std::string& help,
                           QueueSize& value,
                           uint32_t minBytes)
{
    std::ostringstream def;
    def << value;
    Add(
        name,
        help,
        [&value, name, minBytes](const std::string& text)
        {
            QueueSize q = ReadQueueSizeText(text, "--" + name);
            if (q.GetUnit() != QueueSizeUnit::BYTES)
            {
                throw std::invalid_argument("--" + name + ": got " + QuoteText(text)
                                            + ", expected a size in bytes (B, KB, MB, ...), not "
                                              "packets");
            }
            if (q.GetValue() < minBytes)
            {
                throw std::invalid_argument("--" + name + ": got " + QuoteText(text)
                                            + ", expected at least " + std::to_string(minBytes)
                                            + " B");
            }
            value = q;
        },
        def.str());
}

void
ProgramFrame::AddOption(const std::string& name,
                        const std::string& help,
                        std::function<void(const std::string&)> read,
                        const std::string& defaultText)
{
    Add(name, help, read, defaultText);
}

void
ProgramFrame::AddCcOptions(std::string& cc, const std::string& moreHelp)
{
    Add(
        "cc",
        RdmaCcRegistry::GetCommandLineHelp() + moreHelp,
        [&cc](const std::string& text)
        {
            try
            {
                RdmaCongestionOps::LookupTypeId(text);
            }
            catch (const std::invalid_argument&)
            {
                throw std::invalid_argument("--cc: got " + QuoteText(text) + ", expected one of "
                                            + RdmaCcRegistry::GetNameList()
                                            + " (or an ns3::RdmaCongestionOps TypeId name)");
            }
            cc = text;
        },
        cc);
    Add(
        "list-cc",
        "Print the congestion controls (name, switch queue, summary; one a line) and exit",
        [](const std::string& text)
        {
            if (ReadBoolText(text, "--list-cc"))
            {
                std::cout << RdmaCcRegistry::GetListing() << std::flush;
                std::exit(0);
            }
        },
        "false");
}

void
ProgramFrame::SetOptionTypes(const std::string& option, const std::vector<std::string>& typeNames)
{
    m_options.at(option).types = typeNames;
}

void
ProgramFrame::SetOwned(const std::string& path, const std::string& how)
{
    m_owned[path] = how;
}

void
ProgramFrame::SetOwnedGlobal(const std::string& name, const std::string& how)
{
    m_ownedGlobals[name] = how;
}

void
ProgramFrame::SetParallel(bool parallel)
{
    m_parallel = parallel;
}

void
ProgramFrame::Parse(int argc, char* argv[])
{
    m_arguments.assign(argv, argv + argc);
    // ns-3's printing options first: they print and exit, whatever else is given.
    for (int i = 1; i < argc; ++i)
    {
        std::string a = argv[i];
        a = a.substr(a.rfind("--", 0) == 0 ? 2 : a.rfind('-', 0) == 0 ? 1 : 0);
        const std::string name = a.substr(0, a.find('='));
        for (const char* p : PRINT_OPTIONS)
        {
            if (name == p)
            {
                const std::string value
                    = a.find('=') == std::string::npos ? "" : a.substr(a.find('=') + 1);
                TypeId tid;
                if (name == "PrintAttributes" && !TypeId::LookupByNameFailSafe(value, &tid))
                {
                    // (ns-3 aborts on an unknown type)
                    throw std::invalid_argument("--PrintAttributes: got " + QuoteText(value)
                                                + ", expected a type name (--PrintTypeIds lists "
                                                  "them)");
                }
                std::vector<std::string> args{m_arguments[0], argv[i]};
                m_cmd.Parse(args); // exits
            }
        }
    }
    std::vector<std::string> globals{m_arguments[0]};
    for (int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        const std::size_t dashes = a.rfind("--", 0) == 0 ? 2 : a.rfind('-', 0) == 0 ? 1 : 0;
        if (dashes == 0 || a.size() == dashes)
        {
            throw std::invalid_argument("unexpected argument " + QuoteText(a) + ": " + m_program
                                        + " takes options only (--name=value; --help lists "
                                          "them)");
        }
        const std::string body = a.substr(dashes);
        const std::size_t eq = body.find('=');
        const std::string name = body.substr(0, eq);
        const std::string value = eq == std::string::npos ? "" : body.substr(eq + 1);
        if (name.find("::") != std::string::npos)
        {
            if (eq == std::string::npos)
            {
                throw std::invalid_argument("--" + name + " needs a value (--" + name + "=value)");
            }
            for (const std::string& earlier : m_attributeArgs)
            {
                if (earlier.substr(0, earlier.find('=')) == name && earlier != body)
                {
                    throw std::invalid_argument("--" + name + " given twice (--" + earlier
                                                + " and --" + body + ")");
                }
            }
            if (std::find(m_attributeArgs.begin(), m_attributeArgs.end(), body)
                == m_attributeArgs.end())
            {
                m_attributeArgs.push_back(body);
            }
            continue;
        }
        auto given = std::find_if(m_given.begin(),
                                  m_given.end(),
                                  [&name](const auto& g)
                                  {
                                      return g.first == name;
                                  });
        auto option = m_options.find(name);
        if (option != m_options.end())
        {
            if (given != m_given.end())
            {
                if (given->second != value)
                {
                    throw std::invalid_argument("--" + name + " given twice ("
                                                + QuoteText(given->second) + " and "
                                                + QuoteText(value) + ")");
                }
                continue;
            }
            option->second.read(value);
            m_given.emplace_back(name, value);
            continue;
        }
        if (FindGlobal(name))
        {
            CheckGlobal(name, value);
            m_globals.emplace_back(name, value);
            globals.push_back("--" + name + "=" + value);
            continue;
        }
        throw std::invalid_argument("unknown option --" + name + " (" + m_program
                                    + " --help lists its options)");
    }
    std::vector<std::string> paths;
    for (const std::string& arg : m_attributeArgs)
    {
        SetAttributeArgument(arg, true);
        paths.push_back(arg.substr(0, arg.find('=')));
    }
    SetUserAttributePaths(paths);
    m_cmd.Parse(globals); // the global values, checked above
}

void
ProgramFrame::CheckGlobal(const std::string& name, const std::string& value) const
{
    auto owned = m_ownedGlobals.find(name);
    if (owned != m_ownedGlobals.end())
    {
        throw std::invalid_argument("--" + name + "=" + value + ": " + m_program + " sets " + name
                                    + " itself; " + owned->second);
    }
    const std::string what = "--" + name;
    if (name == "SimulatorImplementationType")
    {
        const bool parallelEngine = std::find_if(std::begin(PARALLEL_ENGINES),
                                                 std::end(PARALLEL_ENGINES),
                                                 [&value](const char* e)
                                                 {
                                                     return value == e;
                                                 })
                                    != std::end(PARALLEL_ENGINES);
        if (parallelEngine && !m_parallel)
        {
            throw std::invalid_argument(what + ": got " + QuoteText(value) + ", but " + m_program
                                        + " runs on one process only (the parallel engines are "
                                          "for dcon-testbed, dcon-large-scale and dcon-bench)");
        }
        if (!parallelEngine && value != "ns3::DefaultSimulatorImpl")
        {
            throw std::invalid_argument(
                what + ": got " + QuoteText(value) + ", expected ns3::DefaultSimulatorImpl"
                + (m_parallel ? std::string(" or, in an MPI build, ns3::DistributedSimulatorImpl "
                                            "or ns3::NullMessageSimulatorImpl")
                              : std::string()));
        }
        return; // ParallelRun::Start checks that a parallel engine exists in this build
    }
    if (name == "SchedulerType")
    {
        TypeId tid;
        if (!TypeId::LookupByNameFailSafe(value, &tid)
            || !tid.IsChildOf(TypeId::LookupByName("ns3::Scheduler")) || !tid.HasConstructor())
        {
            throw std::invalid_argument(what + ": got " + QuoteText(value)
                                        + ", expected an event scheduler (ns3::MapScheduler, "
                                          "ns3::HeapScheduler, ns3::ListScheduler, "
                                          "ns3::CalendarScheduler, ns3::PriorityQueueScheduler)");
        }
        return;
    }
    ReadValueText(FindGlobal(name)->GetChecker(), value, what);
    if (name == "RngSeed" && value.find_first_not_of('0') == std::string::npos)
    {
        throw std::invalid_argument(what + ": got " + QuoteText(value)
                                    + ", expected a seed of at least 1");
    }
}

void
ProgramFrame::SetAttributeArgument(const std::string& arg, bool check) const
{
    const std::size_t eq = arg.find('=');
    const std::string path = arg.substr(0, eq);
    const std::string value = arg.substr(eq + 1);
    const std::string what = "--" + path;
    const std::size_t sep = path.rfind("::");
    const std::string typeName = path.substr(0, sep);
    const std::string name = path.substr(sep + 2);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeName, &tid))
    {
        throw std::invalid_argument(what + ": unknown type " + QuoteText(typeName)
                                    + " (--PrintTypeIds lists them)");
    }
    if (check)
    {
        auto owned = m_owned.find(path);
        if (owned != m_owned.end())
        {
            throw std::invalid_argument("--" + arg + ": " + m_program + " sets " + path
                                        + " itself; " + owned->second);
        }
        TypeId owner;
        if (!FindAttributeOwner(tid, name, &owner))
        {
            throw std::invalid_argument(what + ": " + typeName + " has no attribute "
                                        + QuoteText(name) + " (--PrintAttributes=" + typeName
                                        + " lists them)");
        }
        if (owner != tid)
        {
            throw std::invalid_argument(
                what + ": " + name + " is an attribute of " + owner.GetName() + " (which "
                + typeName + " inherits): give --" + owner.GetName() + "::" + name + "=" + value);
        }
    }
    TypeId::AttributeInformation info;
    tid.LookupAttributeByName(name, &info);
    Ptr<AttributeValue> v = ReadValueText(info.checker, value, what);
    if (!Config::SetDefaultFailSafe(path, *v))
    {
        throw std::invalid_argument(what + ": ns-3 refused the value " + QuoteText(value));
    }
}

bool
ProgramFrame::HasOption(const std::string& option) const
{
    return m_options.count(option) > 0;
}

bool
ProgramFrame::IsGiven(const std::string& option) const
{
    return std::any_of(m_given.begin(),
                       m_given.end(),
                       [&option](const auto& g)
                       {
                           return g.first == option;
                       });
}

std::set<std::string>
ProgramFrame::GetGivenOptions() const
{
    std::set<std::string> out;
    for (const auto& [name, value] : m_given)
    {
        out.insert(name);
    }
    return out;
}

const std::vector<std::string>&
ProgramFrame::GetAttributeArguments() const
{
    return m_attributeArgs;
}

bool
ProgramFrame::IsAttributeGiven(const std::string& path) const
{
    return std::any_of(m_attributeArgs.begin(),
                       m_attributeArgs.end(),
                       [&path](const auto& a)
                       {
                           return a.substr(0, a.find('=')) == path;
                       });
}

void
ProgramFrame::SetDefault(const std::string& path,
                         const AttributeValue& value,
                         const std::string& option)
{
    if (IsAttributeGiven(path))
    {
        if (!option.empty() && IsGiven(option))
        {
            throw std::invalid_argument("--" + option + " and --" + path
                                        + " set the same thing: give one of them");
        }
        return; // the user's value stays
    }
    if (!Config::SetDefaultFailSafe(path, value))
    {
        throw std::invalid_argument(m_program + ": cannot set " + path
                                    + (option.empty() ? "" : " from --" + option));
    }
}

void
ProgramFrame::RefuseGiven(const std::vector<std::string>& options, const std::string& why) const
{
    for (const std::string& o : options)
    {
        if (IsGiven(o))
        {
            throw std::invalid_argument("--" + o + " does not apply: " + why);
        }
    }
}

bool
ProgramFrame::IsUsed(TypeId type, const std::vector<TypeId>& created)
{
    return std::any_of(created.begin(),
                       created.end(),
                       [&type](TypeId c)
                       {
                           return c == type || c.IsChildOf(type);
                       });
}

void
ProgramFrame::CheckUse(const std::vector<TypeId>& created, const std::string& run) const
{
    auto unused = [&run](const std::string& what, const std::vector<TypeId>& types)
    {
        std::string msg = what + " is not used by this run (" + run + "): it sets ";
        std::vector<std::string> names;
        std::vector<std::string> users;
        for (TypeId t : types)
        {
            names.push_back(t.GetName());
            for (const std::string& u : AlgorithmsUsing(t))
            {
                if (std::find(users.begin(), users.end(), u) == users.end())
                {
                    users.push_back(u);
                }
            }
        }
        msg += JoinNames(names);
        msg += users.empty() ? ", which this program does not create"
                             : ", used by --cc=" + JoinNames(users);
        throw std::invalid_argument(msg);
    };
    for (const auto& [name, value] : m_given)
    {
        const Option& o = m_options.at(name);
        if (o.types.empty())
        {
            continue;
        }
        std::vector<TypeId> types;
        bool used = false;
        for (const std::string& t : o.types)
        {
            types.push_back(TypeId::LookupByName(t));
            used = used || IsUsed(types.back(), created);
        }
        if (!used)
        {
            unused("--" + name, types);
        }
    }
    for (const std::string& arg : m_attributeArgs)
    {
        const std::string path = arg.substr(0, arg.find('='));
        TypeId tid = TypeId::LookupByName(path.substr(0, path.rfind("::")));
        if (!IsUsed(tid, created))
        {
            unused("--" + arg, {tid});
        }
    }
}

void
ProgramFrame::PrepareOutputFolder(const std::string& dir,
                                  const std::vector<std::string>& kinds) const
{
    OutputFolderReport r = PrepareOutputFolderFor(dir, kinds);
    auto list = [](const std::vector<std::string>& names)
    {
        std::string out;
        for (std::size_t i = 0; i < names.size() && i < 12; ++i)
        {
            out += (i ? ", " : "") + names[i];
        }
        return names.size() > 12 ? out + ", ..." : out;
    };
    if (!r.removed.empty())
    {
        std::cout << m_program << ": removed " << r.removed.size()
                  << " file(s) of an earlier run from " << dir << ": " << list(r.removed)
                  << std::endl;
    }
    if (!r.foreign.empty())
    {
        std::cout << m_program << ": " << dir << " also holds " << r.foreign.size() << " entr"
                  << (r.foreign.size() == 1 ? "y" : "ies")
                  << " this program does not write (left as they are): " << list(r.foreign)
                  << std::endl;
    }
}

std::string
ProgramFrame::GetRunJsonMembers() const
{
    std::ostringstream out;
    out << "  \"program\": " << JsonString(m_program) << ",\n  \"command_line\": [";
    for (std::size_t i = 0; i < m_arguments.size(); ++i)
    {
        out << (i ? ", " : "") << JsonString(m_arguments[i]);
    }
    out << "],\n  \"ns3_version\": " << JsonString(GetNs3Version())
        << ",\n  \"build\": " << GetBuildJson()
        << ",\n  \"rng_seed\": " << RngSeedManager::GetSeed()
        << ",\n  \"rng_run\": " << RngSeedManager::GetRun() << ",\n  \"options_given\": {";
    for (std::size_t i = 0; i < m_given.size(); ++i)
    {
        out << (i ? ", " : "") << JsonString(m_given[i].first) << ": "
            << JsonString(m_given[i].second);
    }
    out << "},\n  \"global_values_given\": {";
    for (std::size_t i = 0; i < m_globals.size(); ++i)
    {
        out << (i ? ", " : "") << JsonString(m_globals[i].first) << ": "
            << JsonString(m_globals[i].second);
    }
    out << "},\n  \"attributes_given\": [";
    for (std::size_t i = 0; i < m_attributeArgs.size(); ++i)
    {
        out << (i ? ", " : "") << JsonString(m_attributeArgs[i]);
    }
    out << "]";
    return out.str();
}

void
ProgramFrame::WriteRunJson(const std::string& dir, const std::string& extraMembers) const
{
    AtomicOutputFile file(std::filesystem::path(dir) / "run.json");
    file.Stream() << "{\n" << GetRunJsonMembers();
    if (!extraMembers.empty())
    {
        file.Stream() << ",\n" << extraMembers;
    }
    file.Stream() << "\n}\n";
    file.Commit();
}

const std::vector<std::string>&
ProgramFrame::GetArguments() const
{
    return m_arguments;
}

const std::string&
ProgramFrame::GetProgram() const
{
    return m_program;
}

int
ProgramFrame::Fail(const std::exception& e)
{
    if (dynamic_cast<const std::bad_alloc*>(&e))
    {
        return ParallelRun::Fail("out of memory (" + std::string(e.what())
                                 + "): the run needs more memory than this machine gives it; a "
                                   "smaller fabric or fewer flows need less");
    }
    return ParallelRun::Fail(e.what());
}

Time
ProgramFrame::GetMaxRunTime()
{
    return Time(Time::Max().GetTimeStep() / 2);
}

std::string
ProgramFrame::GetNs3Version()
{
#if defined(DCON_NS3_VERSION)
    return DCON_NS3_VERSION;
#elif defined(NS3_VERSION_MAJOR) && defined(NS3_VERSION_MINOR)
    std::string v = std::to_string(NS3_VERSION_MAJOR) + "." + std::to_string(NS3_VERSION_MINOR);
#ifdef NS3_VERSION_PATCH
    if (NS3_VERSION_PATCH != 0)
    {
        v += "." + std::to_string(NS3_VERSION_PATCH);
    }
#endif
    return v;
#else
    return "unknown";
#endif
}

} // namespace ns3
