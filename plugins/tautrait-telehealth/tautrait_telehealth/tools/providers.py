"""Looking up clinicians: their details, weekly schedule and who practices a specialty."""

from __future__ import annotations

from tautrait_core import EpisodeDB, tool
from tautrait_telehealth.rows import view
from tautrait_telehealth.schema import Provider
from tautrait_telehealth.tools.display import full_name, provider_prefix, title_case


@tool
def get_provider_details(db: EpisodeDB, provider_id: str) -> str:
    """Show a provider's details: specialty, license, credentials, experience, contact,
    languages, consultation fee and the weekly schedule of bookable time slots.

    Args:
        provider_id: The provider id, e.g. 'dr_okoye_cardiology'.
    """
    provider = view(db, Provider, provider_id)
    if provider is None:
        return f"Provider with ID {provider_id} not found."
    name, contact = provider.name, provider.contact
    lines = [
        f"Provider Details (ID: {provider_id})",
        "",
        f"Name: {provider_prefix(name)} {full_name(name)}",
        f"Specialty: {provider.specialty}",
        f"License Number: {provider.field('license_number')}",
        f"Credentials: {', '.join(provider.credentials)}",
        f"Years of Experience: {provider.years_experience}",
        "",
        "Contact Information:",
        f"- Phone: {contact['phone']}",
        f"- Email: {contact['email']}",
        "",
        f"Languages: {', '.join(provider.languages)}",
        f"Consultation Fee: ${provider.consultation_fee:.2f}",
        "",
        "Weekly Schedule:",
    ]
    for day, slots in provider.schedule.items():
        lines.append(f"- {title_case(day)}: {', '.join(slots) or 'Not available'}")
    return "\n".join(lines)


@tool
def list_available_providers(db: EpisodeDB, specialty: str | None = None) -> str:
    """List providers with their specialty, experience, languages, fee and phone,
    optionally only those of one specialty.

    Args:
        specialty: A specialty such as 'Cardiology' or 'Primary Care' (any case); leave
            it out to list every provider.
    """
    specialties = db.plain_select(
        f'SELECT provider_id, specialty FROM "{Provider.__tablename__}" ORDER BY position'
    )
    matching = [
        view(db, Provider, provider_id)
        for provider_id, provider_specialty in specialties
        if specialty is None or provider_specialty.lower() == specialty.lower()
    ]
    if not matching:
        if specialty:
            return f"No providers found with specialty: {specialty}"
        return "No providers found."
    lines = ["Available Providers" + (f" - {specialty}" if specialty else "") + ":", ""]
    for provider in matching:
        name = provider.name
        lines += [
            f"• {provider_prefix(name)} {full_name(name)} (ID: {provider.provider_id})",
            f"  Specialty: {provider.specialty}",
            f"  Experience: {provider.years_experience} years",
            f"  Languages: {', '.join(provider.languages)}",
            f"  Consultation Fee: ${provider.consultation_fee:.2f}",
            f"  Phone: {provider.contact['phone']}",
            "",
        ]
    return "\n".join(lines).strip()
