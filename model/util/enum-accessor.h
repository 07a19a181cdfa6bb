/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCON_ENUM_ACCESSOR_H
#define DCON_ENUM_ACCESSOR_H

#include "ns3/enum.h"

namespace ns3
{

/**
 * \ingroup dcon-util
 * \brief MakeEnumAccessor for an enum data member that compiles against ns-3.37 and ns-3.41+.
 *
 * ns-3.41 turned EnumValue into a class template, and MakeEnumAccessor then needs the enum type
 * spelled out (MakeEnumAccessor<T>(...)), which ns-3.37 does not accept. `EnumValue(E{})` names
 * EnumValue in ns-3.37 and, by class template argument deduction, EnumValue<E> from ns-3.41 on.
 *
 * \tparam E the enum type
 * \tparam C the class holding the member
 * \param member the enum data member
 * \return the attribute accessor
 */
template <typename E, typename C>
Ptr<const AttributeAccessor>
MakeDconEnumAccessor(E C::*member)
{
    return MakeAccessorHelper<decltype(EnumValue(E{}))>(member);
}

} // namespace ns3

#endif /* DCON_ENUM_ACCESSOR_H */
