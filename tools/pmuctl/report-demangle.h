/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmuctl report's names of symbols (report-demangle.c): a C++ (Itanium
 * ABI) name demangled as perf report shows it, the function's qualified
 * name without its parameters, return type or compiler clone suffixes
 * (_ZN3geo6Solver3runERSt6vectorIiSaIiEEm.isra.0: geo::Solver::run).
 */
#ifndef PMUCTL_REPORT_DEMANGLE_H
#define PMUCTL_REPORT_DEMANGLE_H

/*
 * @name demangled, in memory the caller frees; NULL if it is no mangled
 * name, or none can be demangled here (the C++ runtime's demangler,
 * libstdc++.so.6, is looked for at the first call: a board that runs C++
 * programs has it).
 */
char *report_demangle(const char *name);

#endif /* PMUCTL_REPORT_DEMANGLE_H */
