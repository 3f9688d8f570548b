/**
 * The composite's plain-text locations, as Spring's SearchPathCompositeEnvironmentRepository.getLocations lists
 * them: the locations of each member that has files (git, native; not jdbc or redis), one member after the
 * other in the members' order, each at the revision that member serves the request from.
 */
import type { ResourceLocation } from '../environment/config-repository.js';
import type { EnvironmentRequest } from '../environment/environment-request.js';
import type { CompositeMember } from './composite-repository.js';

export async function memberLocations(
  members: readonly CompositeMember[],
  request: EnvironmentRequest,
  /** Throws (fail-on-composite-error) or answers no locations for the member. */
  memberFailed: (member: CompositeMember, error: unknown) => never[],
): Promise<ResourceLocation[]> {
  // The request's own label and profiles only: a version hint or a pinned commit names the composite's revision.
  const { name, applications, profilesText, profiles, label } = request;
  const memberRequest = { name, applications, profilesText, profiles, label };
  const locations = await Promise.all(
    members
      .filter((member) => member.repository.propertySources === undefined)
      .map(async (member) => {
        try {
          const { revision } = await member.environments.find(memberRequest);
          return await member.environments.resourceLocations(memberRequest, revision);
        } catch (error) {
          return memberFailed(member, error);
        }
      }),
  );
  return locations.flat();
}
